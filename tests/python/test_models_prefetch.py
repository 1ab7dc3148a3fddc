"""perflab.models.prefetch: the bound C++ class-file scanner and PrefetchServer. fetch3 on the real JGit
classpath returns the names tests/prefetch/jgit_fetch3_test.cpp pins for org.eclipse.jgit.pgm.Clone; on
hand-made graphs it returns the replies of tests/prefetch/prefetch_server_test.cpp."""

import pathlib
import re

import pytest

from perflab.models import prefetch

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLASSPATH_FILE = ROOT / "scenarios" / "prefetch" / "data" / "jgit-clone.classpath"


def names_pinned_in_the_cpp_test(constant):
    """The string literals of `const Names <constant> = {...};` in tests/prefetch/jgit_fetch3_test.cpp."""
    source = (ROOT / "tests" / "prefetch" / "jgit_fetch3_test.cpp").read_text()
    body = re.search(r"const Names " + constant + r" = \{(.*?)\};", source, re.S).group(1)
    return re.findall(r'"([^"]+)"', body)


# The names tests/prefetch/jgit_fetch3_test.cpp pins (worked out from javap, apart from the model): the one
# list both tests check, read from the C++ test so the two cannot drift apart.
CLONE_DEPTH_1 = names_pinned_in_the_cpp_test("kCloneDepth1")
CLONE_DEPTH_2 = names_pinned_in_the_cpp_test("kCloneDepth2")


def test_the_pinned_lists_were_found():
    assert len(CLONE_DEPTH_1) == 17 and len(CLONE_DEPTH_2) == 24
    assert CLONE_DEPTH_1[0] == CLONE_DEPTH_2[0] == "org.eclipse.jgit.pgm.Clone"


@pytest.fixture(scope="module")
def classpath():
    return prefetch.Classpath.from_file(str(CLASSPATH_FILE))


@pytest.fixture(scope="module")
def jgit(classpath):
    return prefetch.DependencyGraph(classpath)


def test_fetch3_on_the_real_clone_class_matches_the_cpp_test(jgit):
    server = prefetch.PrefetchServer(jgit, prefetch_depth=1, prune_threshold=1)
    assert server.fetch3("org.eclipse.jgit.pgm.Clone") == CLONE_DEPTH_1
    assert prefetch.fetch3(jgit, "org.eclipse.jgit.pgm.Clone", prefetch_depth=2) == CLONE_DEPTH_2
    assert prefetch.fetch3(jgit, "org.eclipse.jgit.pgm.Clone", prefetch_depth=0) == CLONE_DEPTH_1[:1]


def test_a_channel_never_sends_a_class_twice(jgit):
    server = prefetch.PrefetchServer(jgit)
    first = server.fetch3_reply("org.eclipse.jgit.pgm.Clone")
    assert [sent.name for sent in first] == CLONE_DEPTH_1
    assert first[0].image_inline and not any(sent.image_inline for sent in first[1:])
    assert server.fetch3("org.eclipse.jgit.lib.Repository") == ["org.eclipse.jgit.lib.Repository"] + [
        name for name in jgit.dependencies("org.eclipse.jgit.lib.Repository")
        if name in jgit and name not in CLONE_DEPTH_1
    ]
    assert server.stats.fetch3_calls == 2
    with pytest.raises(ValueError, match=r'class "java.lang.String" is not in the dependency graph \(not on the classpath of'):
        server.fetch3("java.lang.String")
    with pytest.raises(ValueError, match="not on the classpath"):
        prefetch.fetch3(jgit, "java.lang.String")


def test_dependencies_of_real_class_file_bytes(classpath, jgit):
    repository = prefetch.dependencies(classpath.read_class("org.eclipse.jgit.lib.Repository"))
    for expected in ["org.eclipse.jgit.lib.ObjectId", "org.eclipse.jgit.lib.Ref",
                     "org.eclipse.jgit.lib.StoredConfig", "java.io.File", "java.lang.String",
                     "org.eclipse.jgit.lib.Repository"]:
        assert expected in repository
    assert repository == sorted(repository)
    assert repository == jgit.dependencies("org.eclipse.jgit.lib.Repository")
    assert "org.eclipse.jgit.pgm.Clone" in classpath and len(classpath) == len(jgit)
    assert classpath.jar_paths[jgit.jar("org.eclipse.jgit.pgm.Main")].endswith("org.eclipse.jgit.pgm.jar")


def test_malformed_class_bytes_are_a_value_error_naming_the_problem(classpath):
    with pytest.raises(ValueError, match="magic"):
        prefetch.dependencies(b"not a class file")
    clone = classpath.read_class("org.eclipse.jgit.pgm.Clone")
    with pytest.raises(ValueError):
        prefetch.dependencies(clone[:40])
    with pytest.raises(ValueError, match="not on the classpath"):
        classpath.read_class("org.example.Missing")


def test_a_missing_jar_is_a_value_error_naming_it(tmp_path):
    with pytest.raises(ValueError, match="/nonexistent/x.jar"):
        prefetch.Classpath(["/nonexistent/x.jar"])
    listing = tmp_path / "bad.classpath"
    listing.write_text("missing.jar\n")
    with pytest.raises(ValueError, match="missing.jar"):
        prefetch.Classpath.from_file(str(listing))


@pytest.mark.parametrize("depth, rpcs, prefetched, logged_rpcs", [
    (0, 704, 704, 704), (1, 354, 944, 370), (2, 264, 1060, 280), (10, 155, 1240, 153),
])
def test_replaying_the_captured_clone_gives_the_pinned_counts(classpath, jgit, depth, rpcs, prefetched,
                                                             logged_rpcs):
    """CountsPerDepthArePinnedInBothReplayOrders in tests/prefetch/jgit_workload_test.cpp: warm JAR cache,
    dfs, prune threshold 1."""
    trace = str(ROOT / "scenarios" / "prefetch" / "data" / "jgit-clone.classload.log")
    initiated = prefetch.workload(trace, classpath, jgit)
    logged = prefetch.workload(trace, classpath, jgit, order="logged")
    assert len(initiated) == len(logged) == 704 and sorted(initiated) == sorted(logged)
    stats = prefetch.replay(jgit, initiated, prefetch_depth=depth)
    assert (stats.rpcs, stats.classes_prefetched) == (rpcs, prefetched)
    assert stats.classes_defined == 704 and stats.rpcs + stats.prefetch_hits == 704
    assert prefetch.replay(jgit, logged, prefetch_depth=depth).rpcs == logged_rpcs


def test_a_bad_trace_or_order_is_a_value_error(classpath, jgit, tmp_path):
    with pytest.raises(ValueError, match="initiated"):
        prefetch.workload(str(CLASSPATH_FILE), classpath, jgit, order="random")
    with pytest.raises(ValueError, match="/nonexistent/trace.log"):
        prefetch.workload("/nonexistent/trace.log", classpath, jgit)
    with pytest.raises(ValueError, match="cold"):
        prefetch.replay(jgit, [], jar_cache="tepid")


def two_jars():
    """JAR 0: A B C D, JAR 1: X Y; A refers to the JDK too (prefetch_server_test.cpp)."""
    return prefetch.DependencyGraph.from_nodes([
        ("A", 0, ["A", "B", "C", "X", "java.lang.Object"]),
        ("B", 0, ["B", "D"]),
        ("C", 0, ["C", "D", "Y"]),
        ("D", 0, ["D"]),
        ("X", 1, ["X", "Y"]),
        ("Y", 1, ["Y"]),
    ])


def test_hand_made_graphs_give_the_cpp_tests_replies():
    graph = two_jars()
    assert prefetch.fetch3(graph, "A", prefetch_depth=0) == ["A"]
    assert prefetch.fetch3(graph, "A", prefetch_depth=1) == ["A", "B", "C", "X"]
    assert prefetch.fetch3(graph, "A", prefetch_depth=2) == ["A", "B", "D", "C", "Y", "X"]
    assert prefetch.fetch3(graph, "A", prefetch_depth=2, traversal="bfs") == ["A", "B", "C", "X", "D", "Y"]
    server = prefetch.PrefetchServer(graph, traversal="jar")
    assert server.fetch3("C") == ["C", "A", "B", "D"]
    assert server.fetch3("Y") == ["Y", "X"]
    assert server.fetch3("A") == ["A"]
    assert server.stats.classes_loaded == 6


def test_bad_options_are_value_errors():
    graph = two_jars()
    with pytest.raises(ValueError, match='"dfs", "bfs", "jar"'):
        prefetch.PrefetchServer(graph, traversal="random")
    with pytest.raises(ValueError, match="listed twice"):
        prefetch.DependencyGraph.from_nodes([("A", 0, []), ("A", 0, [])])
    with pytest.raises(ValueError, match="expected 0 .. 1"):
        prefetch.PrefetchServer(graph).notify_jar_present(2)


# The prefetch keywords are the study's knobs (scenarios/prefetch/prefetch_study.cpp), checked as a
# scenario file's values are: the same ranges, choices and messages.
@pytest.mark.parametrize("knob", ["prefetch_depth", "prune_threshold"])
def test_a_negative_knob_is_a_value_error_as_in_a_scenario_file(knob):
    graph = two_jars()
    for call in (lambda **o: prefetch.PrefetchServer(graph, **o), lambda **o: prefetch.fetch3(graph, "A", **o),
                 lambda **o: prefetch.replay(graph, ["A"], **o)):
        with pytest.raises(ValueError, match=f'"{knob}" = -1 is too small, expected a value >= 0'):
            call(**{knob: -1})


def test_knobs_are_keywords_only_and_unknown_ones_are_named():
    graph = two_jars()
    with pytest.raises(TypeError):
        prefetch.fetch3(graph, "A", 2)
    with pytest.raises(TypeError, match="prefetch_dept.*expected one of prefetch_depth, prune_threshold, traversal"):
        prefetch.fetch3(graph, "A", prefetch_dept=2)
    with pytest.raises(ValueError, match="an integer"):
        prefetch.PrefetchServer(graph, prefetch_depth=1.5)


def test_the_defaults_and_meanings_are_the_knobs():
    knobs = {p["name"]: p for p in __import__("perflab").describe("prefetch")["params"].to_dict("records")}
    server = prefetch.PrefetchServer(two_jars())
    assert str(server.prefetch_depth) == knobs["prefetch_depth"]["default"]
    assert str(server.prune_threshold) == knobs["prune_threshold"]["default"]
    assert f'"{server.traversal}"' == knobs["traversal"]["default"]
    for name in ("prefetch_depth", "prune_threshold", "traversal"):
        assert knobs[name]["meaning"] in prefetch.fetch3.__doc__


def test_a_hand_written_node_of_the_wrong_shape_names_its_field():
    for node, words in ((("a.A", 0, ["a.B"], b"x" * 10), "class_file_bytes"), (("a", 0, "b"), "one str"),
                        ((1, 0, []), "the name")):
        with pytest.raises(ValueError, match=words):
            prefetch.DependencyGraph.from_nodes([node])
