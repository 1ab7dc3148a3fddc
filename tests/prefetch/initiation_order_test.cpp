// Rebuilding the initiation order from a post-order class-load log, on small hand-made logs: a class with a
// superclass and two interfaces, nested supertypes, a supertype loaded earlier, JDK entries in between; and
// the supertype reader on hand-made class files.
#include "models/prefetch/initiation_order.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "models/prefetch/class_header.h"
#include "models/prefetch/workload.h"
#include "tests/prefetch/class_file_builder.h"

namespace perflab::prefetch {
namespace {

using Names = std::vector<std::string>;

// Class files known to the test: name -> (superclass, interfaces). Anything else (the JDK) is unknown.
class Headers {
 public:
  Headers& add(const std::string& name, const std::string& superclass, Names interfaces = {}) {
    headers_[name] = ClassHeader{name, superclass, std::move(interfaces)};
    return *this;
  }
  ClassHeaderLookup lookup() const {
    return [this](const std::string& name) -> const ClassHeader* {
      auto found = headers_.find(name);
      return found == headers_.end() ? nullptr : &found->second;
    };
  }

 private:
  std::map<std::string, ClassHeader> headers_;
};

// A log of the given names: "jdk:" marks a JDK class (no JAR), the others come from app.jar.
std::vector<TracedClassLoad> log(const Names& names) {
  std::vector<TracedClassLoad> log;
  for (const std::string& name : names) {
    const bool jdk = name.rfind("jdk:", 0) == 0;
    log.push_back({jdk ? name.substr(4) : name, jdk ? "" : "/app.jar", static_cast<int>(log.size()) + 1});
  }
  return log;
}

Names initiated(const Names& logged, const Headers& headers) {
  Names names;
  for (const TracedClassLoad& load : initiation_order(log(logged), headers.lookup())) {
    names.push_back(load.class_name);
  }
  return names;
}

TEST(PrefetchInitiationOrder, AClassComesBeforeItsSuperclassAndInterfaces) {
  Headers headers;
  headers.add("C", "S", {"I1", "I2"}).add("S", "java.lang.Object").add("I1", "java.lang.Object");
  headers.add("I2", "java.lang.Object");
  // JDK 17 resolves the interfaces while parsing C, then the superclass: I1, I2, S, C.
  EXPECT_EQ(initiated({"I1", "I2", "S", "C"}, headers), (Names{"C", "I1", "I2", "S"}));
  // A JVM that resolves the superclass first logs S, I1, I2, C: the same tree, its own order.
  EXPECT_EQ(initiated({"S", "I1", "I2", "C"}, headers), (Names{"C", "S", "I1", "I2"}));
}

TEST(PrefetchInitiationOrder, NestedSupertypesNestAndUnrelatedClassesStayRoots) {
  Headers headers;
  headers.add("C", "S", {"I"}).add("S", "A", {"J"}).add("A", "java.lang.Object");
  headers.add("I", "java.lang.Object").add("J", "java.lang.Object").add("Main", "java.lang.Object");
  headers.add("Next", "java.lang.Object");
  // Main runs, then defining C loads I, then S, whose own definition loads J then A first.
  EXPECT_EQ(initiated({"Main", "I", "J", "A", "S", "C", "Next"}, headers),
            (Names{"Main", "C", "I", "S", "J", "A", "Next"}));
}

TEST(PrefetchInitiationOrder, ASupertypeLoadedEarlierIsNotAdoptedAgain) {
  Headers headers;
  headers.add("S", "java.lang.Object").add("X", "java.lang.Object").add("C1", "S").add("C2", "S");
  // S was defined while C1 was; C2 finds it loaded. Between S and a later subclass an unrelated load X.
  EXPECT_EQ(initiated({"S", "C1", "C2"}, headers), (Names{"C1", "S", "C2"}));
  EXPECT_EQ(initiated({"S", "X", "C1"}, headers), (Names{"S", "X", "C1"}));
}

TEST(PrefetchInitiationOrder, JdkClassesNestAsLeavesAndOtherJdkLoadsInBetweenStayRoots) {
  Headers headers;
  headers.add("C", "S", {"java.util.function.Supplier"}).add("S", "java.lang.Object");
  headers.add("D", "java.lang.Object", {"java.lang.Runnable"});
  // Defining C loads the JDK interface Supplier first, then S: C adopts both.
  EXPECT_EQ(initiated({"jdk:java.util.function.Supplier", "S", "C"}, headers),
            (Names{"C", "java.util.function.Supplier", "S"}));
  // A JDK class that is not a supertype, between S and D, stays a root: D did not load it (nor S).
  EXPECT_EQ(initiated({"S", "jdk:java.lang.Runnable", "jdk:java.util.Iterator", "D"}, headers),
            (Names{"S", "java.lang.Runnable", "java.util.Iterator", "D"}));

  // The workload keeps the classpath classes only, in initiation order.
  const Workload workload = make_workload(
      initiation_order(log({"jdk:java.util.function.Supplier", "S", "C"}), headers.lookup()), {"/app.jar"});
  EXPECT_EQ(workload.classes, (Names{"C", "S"}));
  EXPECT_EQ(workload.dropped, 0u);
}

TEST(PrefetchInitiationOrder, ParsesAndNamesTheTwoOrders) {
  EXPECT_EQ(kTraceOrderNames.names(), (std::vector<std::string>{"initiated", "logged"}));
  for (TraceOrder order : kTraceOrderNames.values()) {
    EXPECT_EQ(*kTraceOrderNames.parse(kTraceOrderNames.name(order)), order);
  }
  auto unknown = kTraceOrderNames.parse("post-order");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "unknown trace order \"post-order\", expected one of: initiated, logged");
}

// Header reader: this, super, interfaces after a pool holding every constant kind the JVM knows.
TEST(PrefetchClassHeader, ReadsThisSuperAndInterfacesPastAnyConstant) {
  testing::ClassFileBuilder builder;
  const std::uint16_t self = builder.add_class("a/b/C$D");
  builder.add_long(1);
  builder.add_raw(17,
                  testing::ClassFileBuilder::U4(0));  // Dynamic: Remoting's scan stops here, the JVM does not
  builder.add_raw(19, testing::ClassFileBuilder::U2(1));  // Module
  const std::uint16_t super = builder.add_class("a/S");
  const std::uint16_t i1 = builder.add_class("a/I1");
  const std::uint16_t i2 = builder.add_class("java/io/Serializable");
  std::string bytes = builder.build();
  // Replace Build()'s tail (flags, this 0, super 0, no interfaces...) with ours.
  bytes.resize(builder.pool_end());
  using B = testing::ClassFileBuilder;
  bytes += B::U2(0x21) + B::U2(self) + B::U2(super) + B::U2(2) + B::U2(i1) + B::U2(i2) + B::U2(0) + B::U2(0) +
           B::U2(0);
  Result<ClassHeader> header = read_class_header(bytes);
  ASSERT_TRUE(header.ok()) << header.status().message();
  EXPECT_EQ(header->name, "a.b.C$D");
  EXPECT_EQ(header->superclass, "a.S");
  EXPECT_EQ(header->interfaces, (Names{"a.I1", "java.io.Serializable"}));

  // Truncated in the interfaces, and a this_class that is not a Class constant: errors that say so.
  Result<ClassHeader> truncated = read_class_header(bytes.substr(0, builder.pool_end() + 10));
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find("interfaces[1]"), std::string::npos)
      << truncated.status().message();
  std::string bad_this = bytes;
  bad_this[builder.pool_end() + 3] = 3;  // this_class = 3, the Long
  Result<ClassHeader> wrong = read_class_header(bad_this);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("this_class is constant 3, expected a Class constant"),
            std::string::npos)
      << wrong.status().message();
}

}  // namespace
}  // namespace perflab::prefetch
