// The constant-pool scan on class files written byte by byte: what it collects, what stops it, what it
// rejects.
#include "models/prefetch/class_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/prefetch/class_file_builder.h"

namespace perflab::prefetch {
namespace {

using testing::ClassFileBuilder;
using Names = std::vector<std::string>;

ClassScan scan_ok(const std::string& class_file) {
  Result<ClassScan> scan = scan_class_file(class_file);
  EXPECT_TRUE(scan.ok()) << scan.status().message();
  return scan.ok() ? scan.value() : ClassScan{};
}

std::string scan_error(const std::string& class_file) {
  Result<ClassScan> scan = scan_class_file(class_file);
  EXPECT_FALSE(scan.ok()) << "scan unexpectedly succeeded";
  return scan.ok() ? "" : scan.status().message();
}

TEST(PrefetchClassFile, EveryConstantKindIsSizedAndOnlyClassesAndDescriptorsCount) {
  ClassFileBuilder pool;
  const std::uint16_t self = pool.add_class("com/example/Self");
  pool.add_integer(42);
  pool.add_float(0x3F800000);
  pool.add_long(0x0102030405060708);    // two slots
  pool.add_double(0x4000000000000000);  // two slots
  const std::uint16_t text = pool.add_utf8("Lnot/a/Dependency; (a string constant)");
  pool.add_string(text);
  const std::uint16_t list = pool.add_class("java/util/List");
  const std::uint16_t field = pool.add_name_and_type("count", "Lcom/example/Counter;");
  const std::uint16_t method = pool.add_name_and_type("Lname/Is/Not/Scanned;", "(ILjava/lang/String;J)V");
  pool.add_fieldref(self, field);
  pool.add_methodref(list, method);
  const std::uint16_t interface_method = pool.add_interface_methodref(list, method);
  pool.add_method_handle(9, interface_method);
  pool.add_method_type(pool.add_utf8("(Lcom/example/Handle;)V"));
  pool.add_invoke_dynamic(0, method);
  // Read correctly only if the Long and Double above took two slots each.
  pool.add_class("com/example/Last");

  const ClassScan scan = scan_ok(pool.build());
  EXPECT_TRUE(scan.prefetchable());
  EXPECT_EQ(scan.dependencies, (Names{"com.example.Counter", "com.example.Last", "com.example.Self",
                                      "java.lang.String", "java.util.List"}));
}

TEST(PrefetchClassFile, ArrayClassConstantsAreUnwrappedAndPrimitiveArraysSkipped) {
  ClassFileBuilder pool;
  pool.add_class("[Ljava/lang/String;");
  pool.add_class("[[I");
  pool.add_class("[J");
  pool.add_class("[[[Lorg/example/Matrix;");
  pool.add_class("org/example/Plain");
  EXPECT_EQ(scan_ok(pool.build()).dependencies,
            (Names{"java.lang.String", "org.example.Matrix", "org.example.Plain"}));
}

TEST(PrefetchClassFile, NameAndTypeDescriptorsGiveEveryObjectType) {
  ClassFileBuilder pool;
  pool.add_name_and_type("m", "(Ljava/util/List;I[Ljava/util/Map;[[Lorg/x/Y;D)Lorg/x/Z;");
  pool.add_name_and_type("f", "[[Z");
  EXPECT_EQ(scan_ok(pool.build()).dependencies,
            (Names{"java.util.List", "java.util.Map", "org.x.Y", "org.x.Z"}));
}

TEST(PrefetchClassFile, NamesAreSortedWithoutDuplicates) {
  ClassFileBuilder pool;
  pool.add_class("b/Z");
  pool.add_class("a/Outer$Inner");
  pool.add_class("a/Outer");
  pool.add_name_and_type("x", "(La/Outer;Lb/Z;)La/Outer$Inner;");
  pool.add_class("[La/Outer;");
  EXPECT_EQ(scan_ok(pool.build()).dependencies, (Names{"a.Outer", "a.Outer$Inner", "b.Z"}));
}

TEST(PrefetchClassFile, ConstantsDefinedAfterTheirUseAreResolved) {
  ClassFileBuilder pool;
  pool.add_raw(7, ClassFileBuilder::U2(2));  // Class -> entry 2, written next
  pool.add_utf8("forward/Reference");
  EXPECT_EQ(scan_ok(pool.build()).dependencies, (Names{"forward.Reference"}));
}

TEST(PrefetchClassFile, ALongInTheLastTwoSlotsOfAFullPoolEndsTheScan) {
  ClassFileBuilder pool;
  pool.add_class("first/Class");         // entries 1 and 2
  while (pool.add_integer(0) < 65533) {  // entries 3 to 65533
  }
  pool.add_long(1);  // entries 65534 and 65535: constant_pool_count is 65535
  const ClassScan scan = scan_ok(pool.build_with_count(65535));
  EXPECT_TRUE(scan.prefetchable());
  EXPECT_EQ(scan.dependencies, (Names{"first.Class"}));
}

TEST(PrefetchClassFile, AnEmptyPoolHasNoDependencies) {
  ClassFileBuilder pool;
  EXPECT_TRUE(scan_ok(pool.build()).dependencies.empty());
}

class PrefetchClassFileUnsupportedTag : public ::testing::TestWithParam<int> {};

TEST_P(PrefetchClassFileUnsupportedTag, StopsTheScanWithoutAnError) {
  ClassFileBuilder pool;
  pool.add_class("before/It");
  pool.add_raw(static_cast<std::uint8_t>(GetParam()), ClassFileBuilder::U2(1));
  pool.add_class("after/It");
  const ClassScan scan = scan_ok(pool.build());
  EXPECT_FALSE(scan.prefetchable());
  EXPECT_EQ(scan.unsupported_tag, GetParam());
  EXPECT_TRUE(scan.dependencies.empty());
}

// 17 Dynamic, 19 Module, 20 Package, and tags no class-file version defines.
INSTANTIATE_TEST_SUITE_P(Prefetch, PrefetchClassFileUnsupportedTag,
                         ::testing::Values(17, 19, 20, 0, 2, 13, 14, 21, 255));

TEST(PrefetchClassFile, RejectsInputThatIsNotAClassFile) {
  EXPECT_NE(scan_error("").find("truncated"), std::string::npos);
  EXPECT_NE(scan_error(std::string("\xCA\xFE\xBA\xBE\0\0\0\x34\0", 9)).find("truncated"), std::string::npos);
  EXPECT_NE(scan_error("PK\x03\x04 this is a zip, not a class").find("magic"), std::string::npos);
  EXPECT_NE(scan_error(ClassFileBuilder().build_with_count(0)).find("constant_pool_count"),
            std::string::npos);
}

TEST(PrefetchClassFile, RejectsAPoolCountLargerThanThePool) {
  ClassFileBuilder pool;
  pool.add_class("some/Class");
  const std::string class_file = pool.build_with_count(1000).substr(0, pool.pool_end());
  EXPECT_NE(scan_error(class_file).find("entry 3 of 999 is missing"), std::string::npos);
}

TEST(PrefetchClassFile, RejectsLengthsPastTheEnd) {
  ClassFileBuilder pool;
  pool.add_raw(1, ClassFileBuilder::U2(500) + "short");
  EXPECT_NE(scan_error(pool.build()).find("runs past the end"), std::string::npos);
}

TEST(PrefetchClassFile, RejectsReferencesToTheWrongKindOfConstant) {
  ClassFileBuilder class_to_integer;
  class_to_integer.add_integer(7);
  class_to_integer.add_raw(7, ClassFileBuilder::U2(1));
  EXPECT_NE(scan_error(class_to_integer.build()).find("Class constant 2 refers to entry 1"),
            std::string::npos);

  ClassFileBuilder class_to_zero;
  class_to_zero.add_raw(7, ClassFileBuilder::U2(0));
  EXPECT_NE(scan_error(class_to_zero.build()).find("refers to entry 0"), std::string::npos);

  ClassFileBuilder class_out_of_range;
  class_out_of_range.add_raw(7, ClassFileBuilder::U2(9));
  EXPECT_NE(scan_error(class_out_of_range.build()).find("refers to entry 9"), std::string::npos);

  ClassFileBuilder descriptor_to_class;
  const std::uint16_t name = descriptor_to_class.add_utf8("x");
  const std::uint16_t a_class = descriptor_to_class.add_class("A");
  descriptor_to_class.add_raw(12, ClassFileBuilder::U2(name) + ClassFileBuilder::U2(a_class));
  EXPECT_NE(scan_error(descriptor_to_class.build()).find("NameAndType"), std::string::npos);

  ClassFileBuilder into_second_slot_of_long;
  into_second_slot_of_long.add_long(1);
  into_second_slot_of_long.add_raw(7, ClassFileBuilder::U2(2));
  EXPECT_FALSE(scan_class_file(into_second_slot_of_long.build()).ok());
}

TEST(PrefetchClassFile, EveryTruncationInsideThePoolIsAnError) {
  ClassFileBuilder pool;
  pool.add_class("java/lang/Object");
  pool.add_long(5);
  pool.add_name_and_type("run", "(Ljava/lang/Runnable;)V");
  pool.add_method_handle(6, 3);
  const std::string class_file = pool.build();
  for (std::size_t length = 0; length < pool.pool_end(); ++length) {
    EXPECT_FALSE(scan_class_file(class_file.substr(0, length)).ok()) << "cut at " << length;
  }
  // The scan reads nothing after the pool.
  EXPECT_TRUE(scan_class_file(class_file.substr(0, pool.pool_end())).ok());
}

}  // namespace
}  // namespace perflab::prefetch
