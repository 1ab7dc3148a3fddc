#!/bin/sh
# Captures the prefetch study's workload: the real class-load order of a JGit clone.
#
# Runs Debian's JGit 4.11 command line (main class org.eclipse.jgit.pgm.Main, as /usr/bin/jgit does) to
# clone a small local repository made here with git, under `java -Xshare:off -Xlog:class+load=info`.
# A call of `perflab capture prefetch` (docs/your-own-workload.md) with JGit's command line. Writes, next to
# this script (or into OUT_DIR, the first argument):
#   jgit-clone.classload.log  the JVM's class-load log (JDK 17 unified-logging format)
#   jgit-clone.classpath      the classpath used, one absolute JAR path per line, in classpath order
# Needs: jgit-cli, libjgit-java and their dependencies, a JDK 17 `java` (or $JAVA), git, a built perflab
# (build/perflab, or $PERFLAB).
#
# Why not just run /usr/bin/jgit: Debian's launcher puts only org.eclipse.jgit.pgm.jar on the classpath and
# relies on its manifest Class-Path, which lacks org.eclipse.jgit.lfs.jar (`jgit` dies with
# NoClassDefFoundError: org/eclipse/jgit/lfs/BuiltinLFS) and names JavaEWAH.jar, which Debian ships as
# javaewah.jar. So the classpath below is instead the runtime dependency closure of org.eclipse.jgit.pgm as
# declared by its POM (/usr/share/maven-repo/org/eclipse/jgit/org.eclipse.jgit.pgm/), in POM order, direct
# dependencies first, resolved to Debian's JARs: the classpath upstream's self-contained jgit.sh bundles.
# Left out: slf4j-log4j12 + log4j (log4j 1.2 is not packaged in Debian 12; without a binding SLF4J falls
# back to its no-op logger) and org.eclipse.osgi (only used by the archive bundle's OSGi activator).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out_dir=$(cd "${1:-$here}" && pwd)
perflab=${PERFLAB:-$here/../../../build/perflab}
. "$here/clone-source.sh"
java=${JAVA:-java}
lib=/usr/share/java

classpath_jars="
  org.eclipse.jgit.pgm.jar
  args4j.jar
  commons-compress.jar
  org.eclipse.jgit.archive.jar
  org.eclipse.jgit.jar
  org.eclipse.jgit.ui.jar
  org.eclipse.jgit.http.apache.jar
  httpclient.jar
  slf4j-api.jar
  jetty9-servlet.jar
  org.eclipse.jgit.lfs.jar
  org.eclipse.jgit.lfs.server.jar
  jsch.jar
  jzlib.jar
  javaewah.jar
  httpcore.jar
  commons-logging.jar
  commons-codec.jar
  gson.jar
  jetty9-security.jar
  jetty9-server.jar
  servlet-api.jar
  jetty9-http.jar
  jetty9-io.jar
  jetty9-util.jar
"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

classpath=
for jar in $classpath_jars; do
  [ -f "$lib/$jar" ] || { echo "capture-trace.sh: $lib/$jar not found; install jgit-cli and its dependencies" >&2; exit 1; }
  classpath=${classpath:+$classpath:}$lib/$jar
done

src="$work/src"
make_clone_source "$src"
cd "$work"

# perflab capture prefetch runs it under -Xshare:off -Xlog:class+load=info (every class really loaded from
# its JAR and logged with its source) and records the classpath it used.
"$perflab" capture prefetch --out "$work/capture" --name jgit-clone -- \
  "$java" -cp "$classpath" org.eclipse.jgit.pgm.Main clone "$src" "$work/dst"
[ -f "$work/dst/README.md" ] || { echo "capture-trace.sh: the clone produced no work tree" >&2; exit 1; }
cp "$work/capture/jgit-clone.classload.log" "$work/capture/jgit-clone.classpath" "$out_dir/"
echo "copied jgit-clone.classload.log and jgit-clone.classpath to $out_dir; the scenario the capture printed"
echo "was in a scratch folder, now removed: scenarios/prefetch/jgit-clone.toml is the one that reads these files"
