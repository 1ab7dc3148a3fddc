#!/bin/sh
# Measures what the prefetch model leaves out: the lookups a Remoting agent would send besides the class
# loads the -Xlog:class+load trace records. Runs the same JGit clone as capture-trace.sh, but with JGit's
# JARs behind a logging URLClassLoader whose parent is the JDK's platform loader, as an agent's
# RemoteClassLoader sits behind the agent's own loader: every findClass (found or not: a miss also costs an
# RPC), findResource (getResource2) and findResources (getResources2) it gets is one remote lookup at
# depth 0. Prints the counts; nothing is written to the repository.
# Needs: what capture-trace.sh needs, plus a JDK 17 `javac` (or $JAVAC).
set -eu

java=${JAVA:-java}
javac=${JAVAC:-javac}
data_dir=$(cd "$(dirname "$0")" && pwd)
. "$data_dir/clone-source.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/probe"
cat >"$work/probe/LookupProbe.java" <<'JAVA'
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

public class LookupProbe extends URLClassLoader {
  static final Set<String> classesFound = Collections.synchronizedSet(new LinkedHashSet<>());
  static final Set<String> classesMissing = Collections.synchronizedSet(new LinkedHashSet<>());
  static final Set<String> resources = Collections.synchronizedSet(new LinkedHashSet<>());
  static final Set<String> resourceLists = Collections.synchronizedSet(new LinkedHashSet<>());

  LookupProbe(URL[] urls) { super(urls, ClassLoader.getPlatformClassLoader()); }

  @Override protected Class<?> findClass(String name) throws ClassNotFoundException {
    try {
      Class<?> c = super.findClass(name);
      classesFound.add(name);
      return c;
    } catch (ClassNotFoundException e) {
      classesMissing.add(name);
      throw e;
    }
  }
  @Override public URL findResource(String name) { resources.add(name); return super.findResource(name); }
  @Override public Enumeration<URL> findResources(String name) throws IOException {
    resourceLists.add(name);
    return super.findResources(name);
  }

  public static void main(String[] args) throws Exception {
    List<URL> urls = new ArrayList<>();
    for (String jar : Files.readAllLines(Paths.get(args[0]))) {
      if (!jar.isBlank() && !jar.startsWith("#")) urls.add(new File(jar.trim()).toURI().toURL());
    }
    LookupProbe loader = new LookupProbe(urls.toArray(new URL[0]));
    Thread.currentThread().setContextClassLoader(loader);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("lookup-probe: classes found " + classesFound.size() + ", class lookups that failed "
          + classesMissing.size() + ", resources " + resources.size() + ", resource lists " + resourceLists.size());
      for (String n : classesMissing) System.err.println("lookup-probe: missing class " + n);
      for (String n : resources) System.err.println("lookup-probe: resource " + n);
      for (String n : resourceLists) System.err.println("lookup-probe: resource list " + n);
    }));
    String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
    loader.loadClass("org.eclipse.jgit.pgm.Main").getMethod("main", String[].class).invoke(null, (Object) rest);
  }
}
JAVA
"$javac" -d "$work/probe" "$work/probe/LookupProbe.java"

src="$work/src"
make_clone_source "$src"
cd "$work"

"$java" -Xshare:off -cp "$work/probe" LookupProbe "$data_dir/jgit-clone.classpath" clone "$src" "$work/dst" \
  >"$work/clone.out" 2>"$work/probe.err" || { cat "$work/clone.out" "$work/probe.err" >&2; exit 1; }
[ -f "$work/dst/README.md" ] || { echo "count-remote-lookups.sh: the clone produced no work tree" >&2; exit 1; }
grep '^lookup-probe:' "$work/probe.err"
