// perflab.models.prefetch: Jenkins Remoting's class-file scanner and the tunable prefetch of PR #721
// (models/prefetch) bound as they are: scan a class file's constant pool, open a real classpath, build its
// dependency graph and ask a PrefetchServer what fetch3 sends for a class, in reply order; and, on the
// agent's side, replay a captured class-load trace through the RemoteClassLoader to count RPCs.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "analysis/module/knob_arguments.h"
#include "analysis/module/model_bindings.h"
#include "models/common/printable.h"
#include "models/prefetch/class_file.h"
#include "models/prefetch/class_load_trace.h"
#include "models/prefetch/classpath.h"
#include "models/prefetch/classpath_file.h"
#include "models/prefetch/dependency_graph.h"
#include "models/prefetch/direct_channel.h"
#include "models/prefetch/initiation_order.h"
#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/remote_class_loader.h"
#include "models/prefetch/sent_class.h"
#include "models/prefetch/workload.h"
#include "scenarios/prefetch/prefetch_study.h"

namespace py = pybind11;

namespace perflab::python {
namespace {

using prefetch::AgentStats;
using prefetch::ClassNode;
using prefetch::Classpath;
using prefetch::DependencyGraph;
using prefetch::PrefetchOptions;
using prefetch::PrefetchServer;
using prefetch::SentClass;
using prefetch::ServerStats;

std::vector<std::string> names_of(const std::vector<SentClass>& reply) {
  std::vector<std::string> names;
  names.reserve(reply.size());
  for (const SentClass& sent : reply) names.push_back(sent.name);
  return names;
}

// The study's prefetch knobs, which the functions below take as keywords; replay() also takes jar_cache.
const std::vector<std::string> kPrefetchKnobs = {"prefetch_depth", "prune_threshold", "traversal"};

// The prefetch a function's keyword arguments set; the defaults are Remoting's shipped one-level prefetch.
PrefetchOptions prefetch_options(const py::kwargs& kwargs, const std::string& function) {
  return knob_options(prefetch_study::knobs(), kPrefetchKnobs, kwargs, function).server;
}

// What the prefetch keywords mean, in the words of their bindings (scenarios/prefetch/prefetch_study.cpp).
const std::string& prefetch_knob_lines() {
  static const std::string lines = knob_lines(prefetch_study::knobs().specs(), kPrefetchKnobs);
  return lines;
}

std::shared_ptr<Classpath> open_classpath(const std::vector<std::string>& jar_paths) {
  if (jar_paths.empty()) throw py::value_error("Classpath: no JAR given, expected at least one JAR path");
  return std::make_shared<Classpath>(value_or_throw(Classpath::Open(jar_paths)));
}

// A PrefetchServer and the graph it reads, which the server must not outlive.
class BoundServer {
 public:
  BoundServer(std::shared_ptr<const DependencyGraph> graph, PrefetchOptions options)
      : graph_(std::move(graph)), server_(*graph_, options) {}
  const DependencyGraph& graph() const { return *graph_; }
  PrefetchServer& server() { return server_; }
  const PrefetchServer& server() const { return server_; }

 private:
  std::shared_ptr<const DependencyGraph> graph_;
  PrefetchServer server_;
};

const ClassNode& node_of(const DependencyGraph& graph, const std::string& name) {
  std::optional<DependencyGraph::Vertex> vertex = graph.find(name);
  if (!vertex)
    throw py::value_error(
        "class \"" + printable(name) + "\" is not in the dependency graph (not on the classpath of " +
        std::to_string(graph.class_count()) + " classes), expected a name such as \"" +
        (graph.class_count() > 0 ? graph.node(0).name : std::string("java/lang/Object")) + "\"");
  return graph.node(*vertex);
}

// (name, jar, dependencies) or (name, jar, dependencies, class_file_bytes): a hand-written class.
ClassNode node_from_tuple(const py::tuple& item) {
  if (item.size() != 3 && item.size() != 4) {
    throw py::value_error("from_nodes: a node is (name, jar, dependencies[, class_file_bytes]), got " +
                          std::string(py::repr(item)));
  }
  // Each field's type said by name (pybind11's own cast error names no field).
  const auto field = [&item](size_t i, const char* name, const char* expected, auto& into) {
    try {
      into = item[i].cast<std::remove_reference_t<decltype(into)>>();
    } catch (const py::cast_error&) {
      throw py::value_error(std::string("from_nodes: ") + name + " of " + std::string(py::repr(item)) +
                            " is of type " + std::string(py::str(py::type::of(item[i]).attr("__name__"))) +
                            ", expected " + expected);
    }
  };
  ClassNode node;
  field(0, "the name", "a str", node.name);
  field(1, "the JAR index", "an int", node.jar);
  if (py::isinstance<py::str>(item[2])) {
    throw py::value_error("from_nodes: the dependencies of " + std::string(py::repr(item)) +
                          " are one str, expected a list of class names");
  }
  field(2, "the dependencies", "a list of class names", node.dependencies);
  if (item.size() == 4)
    field(3, "class_file_bytes", "an int (the class file's size in bytes)", node.class_file_bytes);
  return node;
}

void bind_scanner(py::module_& m) {
  py::class_<prefetch::ClassScan>(m, "ClassScan",
                                  "What Remoting's constant-pool scan found in one class file.")
      .def_readonly(
          "dependencies", &prefetch::ClassScan::dependencies,
          "Sorted binary names ('java.lang.String'), the class itself included; empty when the scan "
          "stopped at an unsupported constant.")
      .def_readonly(
          "unsupported_tag", &prefetch::ClassScan::unsupported_tag,
          "The constant-pool tag that stopped the scan (Module 19, Package 20, Dynamic 17...), or None.")
      .def_property_readonly("prefetchable", &prefetch::ClassScan::prefetchable,
                             "False when the scan stopped: Remoting then sends the class without prefetch.");

  m.def(
      "scan_class_file",
      [](const py::bytes& class_file) {
        return value_or_throw(prefetch::scan_class_file(std::string(class_file)));
      },
      py::arg("class_file"),
      "Scans the constant pool of a class file (bytes) as Remoting does. ValueError when the bytes are not a "
      "well-formed constant pool (bad magic, truncation, an index to the wrong kind of constant).");
  m.def(
      "dependencies",
      [](const py::bytes& class_file) {
        return value_or_throw(prefetch::scan_class_file(std::string(class_file))).dependencies;
      },
      py::arg("class_file"),
      "The class names a class file (bytes) refers to, sorted, the class itself included: every "
      "CONSTANT_Class and every L...; in a NameAndType descriptor. Empty when the scan stops at a constant "
      "it cannot size (no prefetch). ValueError on malformed bytes, naming what is wrong.");
}

void bind_classpath(py::module_& m) {
  py::class_<Classpath, std::shared_ptr<Classpath>>(
      m, "Classpath",
      "The JARs a class loader searches, in order; the first JAR holding a class name wins. Opened with "
      "libzip from real JAR files.")
      .def(py::init(&open_classpath), py::arg("jar_paths"),
           "Classpath(jar_paths): opens every JAR (a list of paths). ValueError naming the first JAR that "
           "cannot be opened.")
      .def_static(
          "from_file",
          [](const std::string& path) {
            return open_classpath(value_or_throw(prefetch::read_classpath_file(path)));
          },
          py::arg("path"),
          "Opens the JARs a classpath file lists, one path per line (e.g. "
          "scenarios/prefetch/data/jgit-clone.classpath); relative paths are relative to the file.")
      .def_property_readonly(
          "jar_paths",
          [](const Classpath& self) {
            std::vector<std::string> paths;
            paths.reserve(self.jar_count());
            for (int jar = 0; jar < self.jar_count(); ++jar) paths.push_back(self.jar(jar).path());
            return paths;
          },
          "The JAR paths, in classpath order (a class's `jar` is an index into this list).")
      .def(
          "__len__", [](const Classpath& self) { return self.classes().size(); },
          "How many classes can load.")
      .def(
          "__contains__",
          [](const Classpath& self, const std::string& name) { return self.find(name).has_value(); },
          py::arg("name"), "Whether a class (binary name, e.g. 'org.eclipse.jgit.lib.Repository') can load.")
      .def(
          "class_names",
          [](const Classpath& self) {
            std::vector<std::string> names;
            for (const auto& location : self.classes()) names.push_back(self.entry(location).binary_name);
            return names;
          },
          "Every loadable class once, in classpath order: JAR by JAR, each in its entry order.")
      .def(
          "read_class",
          [](const Classpath& self, const std::string& name) {
            std::optional<prefetch::ClassLocation> location = self.find(name);
            if (!location) throw py::value_error("class " + name + " is not on the classpath");
            return py::bytes(value_or_throw(self.read_class(*location)));
          },
          py::arg("name"), "The class file's bytes, read from the first JAR that holds it.");
}

void bind_graph(py::module_& m) {
  py::class_<DependencyGraph, std::shared_ptr<DependencyGraph>>(
      m, "DependencyGraph",
      "Every class of a classpath and the classes its constant pool refers to (JDK and missing classes "
      "included, as fetch3 walks and marks those too).")
      .def(py::init([](const Classpath& classpath) {
             std::optional<Result<DependencyGraph>> built;
             {
               py::gil_scoped_release release;
               built.emplace(DependencyGraph::Build(classpath));
             }
             return std::make_shared<DependencyGraph>(value_or_throw(std::move(*built)));
           }),
           py::arg("classpath"),
           "DependencyGraph(classpath): reads and scans every class of the classpath (a few seconds for "
           "JGit's). A class that does not scan gets no dependencies, as in Remoting.")
      .def_static(
          "from_nodes",
          [](const std::vector<py::tuple>& items) {
            std::vector<ClassNode> nodes;
            nodes.reserve(items.size());
            for (const py::tuple& item : items) nodes.push_back(node_from_tuple(item));
            return std::make_shared<DependencyGraph>(
                value_or_throw(DependencyGraph::FromNodes(std::move(nodes))));
          },
          py::arg("nodes"),
          "A graph of hand-written classes, each (name, jar, dependencies[, class_file_bytes]): a str, an "
          "int "
          "JAR index, a list of class names, and the class file's size in bytes (an int); "
          "dependencies are sorted for you and may name classes that are not in the graph. ValueError on a "
          "duplicate name or a negative JAR index.")
      .def("__len__", &DependencyGraph::class_count, "How many classes the graph holds.")
      .def_property_readonly("jar_count", &DependencyGraph::jar_count, "How many JARs the classes come from.")
      .def(
          "__contains__",
          [](const DependencyGraph& self, const std::string& name) { return self.find(name).has_value(); },
          py::arg("name"), "Whether the class is in the graph (loadable).")
      .def(
          "dependencies",
          [](const DependencyGraph& self, const std::string& name) {
            return node_of(self, name).dependencies;
          },
          py::arg("name"), "The class's scanned dependencies, sorted (empty if its scan failed).")
      .def(
          "jar", [](const DependencyGraph& self, const std::string& name) { return node_of(self, name).jar; },
          py::arg("name"), "The index of the class's JAR on the classpath.");
}

void bind_server(py::module_& m) {
  py::class_<SentClass>(m, "SentClass", "One class in a reply of the controller (Remoting's ClassFile2).")
      .def_readonly("name", &SentClass::name, "The class's binary name.")
      .def_readonly("jar", &SentClass::jar, "Its JAR's index on the controller's classpath.")
      .def_readonly("class_file_bytes", &SentClass::class_file_bytes, "The class file's size in bytes.")
      .def_readonly("image_inline", &SentClass::image_inline,
                    "True: the bytes travel in the reply (ResourceImageBoth); False: only the JAR's checksum "
                    "does (ResourceImageInJar).")
      .def("__repr__", [](const SentClass& sent) {
        return "<SentClass " + sent.name + " jar " + std::to_string(sent.jar) +
               (sent.image_inline ? " inline>" : ">");
      });

  py::class_<ServerStats>(m, "ServerStats", "What a PrefetchServer did since it was made (counts).")
      .def_readonly("fetch3_calls", &ServerStats::fetch3_calls, "fetch3 requests answered.")
      .def_readonly("fetch_calls", &ServerStats::fetch_calls,
                    "fetch (one class, no prefetch) requests answered.")
      .def_readonly("classes_sent", &ServerStats::classes_sent,
                    "Classes in all replies, requested ones included.")
      .def_readonly("classes_loaded", &ServerStats::classes_loaded, "Distinct classes read to answer.")
      .def_readonly("classes_scanned", &ServerStats::classes_scanned,
                    "Distinct classes whose pool was scanned.");

  static const std::string init_doc =
      "PrefetchServer(graph, **prefetch)\n\n"
      "graph: the DependencyGraph of the controller's classpath.\n" +
      prefetch_knob_lines() + "The defaults are the one-level prefetch Remoting ships.";
  py::class_<BoundServer>(
      m, "PrefetchServer",
      "The controller side of Remoting class loading with the prefetch of PR #721. It remembers, for its "
      "channel, every class it marked as prefetched: nothing is sent twice.")
      .def(py::init([](std::shared_ptr<const DependencyGraph> graph, const py::kwargs& prefetch) {
             if (!graph) throw py::value_error("PrefetchServer: graph is None, expected a DependencyGraph");
             return std::make_unique<BoundServer>(std::move(graph),
                                                  prefetch_options(prefetch, "PrefetchServer"));
           }),
           py::arg("graph"), init_doc.c_str())
      .def(
          "fetch3",
          [](BoundServer& self, const std::string& name) {
            node_of(self.graph(), name);  // a class not on the classpath is an error, not an empty reply
            return names_of(self.server().fetch3(name));
          },
          py::arg("name"),
          "Answers an agent's miss for `name`: the class names of the reply, requested class first, then "
          "the prefetched ones in traversal order. ValueError when the class is not on the classpath.")
      .def(
          "fetch3_reply",
          [](BoundServer& self, const std::string& name) {
            node_of(self.graph(), name);
            return self.server().fetch3(name);
          },
          py::arg("name"),
          "fetch3, returning the SentClass of each class of the reply (JAR, size, inline or not).")
      .def(
          "fetch", [](BoundServer& self, const std::string& name) { return self.server().fetch(name); },
          py::arg("name"),
          "One class, no prefetch, the prefetched set untouched; None when not on the classpath.")
      .def(
          "notify_jar_present",
          [](BoundServer& self, int jar) {
            const int jars = self.graph().jar_count();
            if (jar < 0 || jar >= jars) {
              throw py::value_error("notify_jar_present: no JAR " + std::to_string(jar) + ", expected 0 .. " +
                                    std::to_string(jars - 1));
            }
            self.server().notify_jar_present(jar);
          },
          py::arg("jar"),
          "The agent holds JAR `jar` (downloaded or cached): from now on the requested classes of that JAR "
          "travel as JAR references.")
      .def_property_readonly(
          "prefetch_depth", [](const BoundServer& self) { return self.server().options().prefetch_depth; },
          "Levels of dependencies sent.")
      .def_property_readonly(
          "prune_threshold", [](const BoundServer& self) { return self.server().options().prune_threshold; },
          "Level from which only same-JAR classes are expanded.")
      .def_property_readonly(
          "traversal",
          [](const BoundServer& self) {
            return prefetch::kTraversalNames.name(self.server().options().traversal);
          },
          "The traversal's name, one of traversals().")
      .def_property_readonly(
          "stats", [](const BoundServer& self) { return self.server().stats(); },
          "The server's counts so far (a copy).");
}

// The classes a captured run loads (a JDK -Xlog:class+load log), each once, from the classpath's JARs, in
// `order`: "initiated" (the order the agent asks for them, supertypes after the class that needs them) or
// "logged" (the log's order). The scenario's workload (scenarios/prefetch/jgit_inputs.cpp) is this.
std::vector<std::string> workload(const std::string& trace_path, const Classpath& classpath,
                                  const DependencyGraph& graph, const std::string& order) {
  const prefetch::TraceOrder trace_order = value_or_throw(prefetch::kTraceOrderNames.parse(order));
  const std::vector<prefetch::TracedClassLoad> logged =
      value_or_throw(prefetch::read_class_load_trace(trace_path));
  std::vector<std::string> jar_paths;
  jar_paths.reserve(classpath.jar_count());
  for (int jar = 0; jar < classpath.jar_count(); ++jar) jar_paths.push_back(classpath.jar(jar).path());
  if (trace_order == prefetch::TraceOrder::kLogged) return prefetch::make_workload(logged, jar_paths).classes;
  const auto header_of = [&graph](const std::string& name) { return graph.header(name); };
  return prefetch::make_workload(prefetch::initiation_order(logged, header_of), jar_paths).classes;
}

// The agent loads `classes` in order through a fresh channel to a fresh server (in-process: downloads are
// instant), as the study's counting replay does.
// Unlike the study, every JAR is local unless jar_cache says otherwise.
AgentStats replay(const DependencyGraph& graph, const std::vector<std::string>& classes,
                  const py::kwargs& options) {
  prefetch_study::JobOptions start;
  start.jar_cache = prefetch::JarCache::kWarm;
  std::vector<std::string> knobs = kPrefetchKnobs;
  knobs.push_back("jar_cache");
  const prefetch_study::JobOptions o = knob_options(prefetch_study::knobs(), knobs, options, "replay", start);
  PrefetchServer server(graph, o.server);
  prefetch::DirectChannel channel(server);
  prefetch::RemoteClassLoader loader(channel, o.jar_cache);
  loader.load_all(classes);
  return loader.stats();
}

void bind_agent(py::module_& m) {
  py::class_<AgentStats>(m, "AgentStats", "What the agent's RemoteClassLoader counted over a replay.")
      .def_readonly("rpcs", &AgentStats::rpcs, "Round trips: fetch3 calls plus extra fetch calls.")
      .def_readonly("fetch3_calls", &AgentStats::fetch3_calls, "fetch3 requests (class misses).")
      .def_readonly(
          "extra_fetches", &AgentStats::extra_fetches,
          "Fetch calls for a class sent as a JAR reference whose JAR had not arrived yet (a prefetch hit, "
          "or a fetch3 reply once the controller had written the JAR).")
      .def_readonly("classes_prefetched", &AgentStats::classes_prefetched,
                    "Sum of fetch3 reply sizes, requested classes included (as the PR counts).")
      .def_readonly("prefetch_hits", &AgentStats::prefetch_hits, "Loads answered from prefetched hints.")
      .def_readonly("bytes_prefetched", &AgentStats::bytes_prefetched,
                    "Class-file bytes of the non-requested classes received.")
      .def_readonly("jar_downloads", &AgentStats::jar_downloads, "JARs downloaded (cold cache).")
      .def_readonly("classes_defined", &AgentStats::classes_defined, "Classes defined.")
      .def_readonly("classes_not_found", &AgentStats::classes_not_found,
                    "fetch3 replies that came back empty.");

  const prefetch_study::JobOptions study;
  m.def("workload", &workload, py::arg("trace"), py::arg("classpath"), py::arg("graph"),
        py::arg("order") = prefetch::kTraceOrderNames.name(study.trace_order),
        "The class names a captured run loads, each once, from the classpath's JARs (the scenario's "
        "workload).\n\n"
        "trace: a JDK -Xlog:class+load log, e.g. scenarios/prefetch/data/jgit-clone.classload.log.\n"
        "classpath, graph: the controller's Classpath and its DependencyGraph (for the supertypes).\n"
        "order: 'initiated' (the order the agent asks for them) or 'logged' (the log's order).");
  static const std::string replay_doc =
      "replay(graph, classes, **options): loads `classes` in order on an agent (RemoteClassLoader) talking "
      "in-process to a fresh PrefetchServer with these options, and returns the agent's AgentStats.\n\n" +
      prefetch_knob_lines() +
      "jar_cache: 'warm' (every JAR local; the default here, unlike the study's cold cache) or 'cold' (JARs "
      "downloaded on first use, instantly in-process).";
  m.def("replay", &replay, py::arg("graph"), py::arg("classes"), replay_doc.c_str());
}

void bind_prefetch(py::module_& models) {
  py::module_ m = models.def_submodule(
      "prefetch",
      "Jenkins Remoting class loading with tunable prefetch (PR #721), the C++ model: dependencies(), "
      "Classpath, DependencyGraph, PrefetchServer.fetch3.");
  bind_scanner(m);
  bind_classpath(m);
  bind_graph(m);
  bind_server(m);
  bind_agent(m);
  m.def(
      "traversals", [] { return prefetch::kTraversalNames.names(); },
      "The prefetch traversals, as the traversal knob and traversal= spell them.");
  static const std::string fetch3_doc =
      "fetch3(graph, name, **prefetch): fetch3 of `name` on a fresh channel (a new PrefetchServer): the "
      "reply's class names in order.\n\n" +
      prefetch_knob_lines();
  m.def(
      "fetch3",
      [](const DependencyGraph& graph, const std::string& name, const py::kwargs& prefetch) {
        node_of(graph, name);
        PrefetchServer server(graph, prefetch_options(prefetch, "fetch3"));
        return names_of(server.fetch3(name));
      },
      py::arg("graph"), py::arg("name"), fetch3_doc.c_str());
}

}  // namespace

const ModelBindingRegistration registration("prefetch", &bind_prefetch);

}  // namespace perflab::python
