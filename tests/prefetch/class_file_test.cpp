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

ClassScan ScanOk(const std::string& class_file) {
  Result<ClassScan> scan = ScanClassFile(class_file);
  EXPECT_TRUE(scan.ok()) << scan.status().message();
  return scan.ok() ? scan.value() : ClassScan{};
}

std::string ScanError(const std::string& class_file) {
  Result<ClassScan> scan = ScanClassFile(class_file);
  EXPECT_FALSE(scan.ok()) << "scan unexpectedly succeeded";
  return scan.ok() ? "" : scan.status().message();
}

TEST(PrefetchClassFile, EveryConstantKindIsSizedAndOnlyClassesAndDescriptorsCount) {
  ClassFileBuilder pool;
  const std::uint16_t self = pool.AddClass("com/example/Self");
  pool.AddInteger(42);
  pool.AddFloat(0x3F800000);
  pool.AddLong(0x0102030405060708);    // two slots
  pool.AddDouble(0x4000000000000000);  // two slots
  const std::uint16_t text = pool.AddUtf8("Lnot/a/Dependency; (a string constant)");
  pool.AddString(text);
  const std::uint16_t list = pool.AddClass("java/util/List");
  const std::uint16_t field = pool.AddNameAndType("count", "Lcom/example/Counter;");
  const std::uint16_t method = pool.AddNameAndType("Lname/Is/Not/Scanned;", "(ILjava/lang/String;J)V");
  pool.AddFieldref(self, field);
  pool.AddMethodref(list, method);
  const std::uint16_t interface_method = pool.AddInterfaceMethodref(list, method);
  pool.AddMethodHandle(9, interface_method);
  pool.AddMethodType(pool.AddUtf8("(Lcom/example/Handle;)V"));
  pool.AddInvokeDynamic(0, method);
  // Read correctly only if the Long and Double above took two slots each.
  pool.AddClass("com/example/Last");

  const ClassScan scan = ScanOk(pool.Build());
  EXPECT_TRUE(scan.prefetchable());
  EXPECT_EQ(scan.dependencies, (Names{"com.example.Counter", "com.example.Last", "com.example.Self",
                                      "java.lang.String", "java.util.List"}));
}

TEST(PrefetchClassFile, ArrayClassConstantsAreUnwrappedAndPrimitiveArraysSkipped) {
  ClassFileBuilder pool;
  pool.AddClass("[Ljava/lang/String;");
  pool.AddClass("[[I");
  pool.AddClass("[J");
  pool.AddClass("[[[Lorg/example/Matrix;");
  pool.AddClass("org/example/Plain");
  EXPECT_EQ(ScanOk(pool.Build()).dependencies,
            (Names{"java.lang.String", "org.example.Matrix", "org.example.Plain"}));
}

TEST(PrefetchClassFile, NameAndTypeDescriptorsGiveEveryObjectType) {
  ClassFileBuilder pool;
  pool.AddNameAndType("m", "(Ljava/util/List;I[Ljava/util/Map;[[Lorg/x/Y;D)Lorg/x/Z;");
  pool.AddNameAndType("f", "[[Z");
  EXPECT_EQ(ScanOk(pool.Build()).dependencies,
            (Names{"java.util.List", "java.util.Map", "org.x.Y", "org.x.Z"}));
}

TEST(PrefetchClassFile, NamesAreSortedWithoutDuplicates) {
  ClassFileBuilder pool;
  pool.AddClass("b/Z");
  pool.AddClass("a/Outer$Inner");
  pool.AddClass("a/Outer");
  pool.AddNameAndType("x", "(La/Outer;Lb/Z;)La/Outer$Inner;");
  pool.AddClass("[La/Outer;");
  EXPECT_EQ(ScanOk(pool.Build()).dependencies, (Names{"a.Outer", "a.Outer$Inner", "b.Z"}));
}

TEST(PrefetchClassFile, ConstantsDefinedAfterTheirUseAreResolved) {
  ClassFileBuilder pool;
  pool.AddRaw(7, ClassFileBuilder::U2(2));  // Class -> entry 2, written next
  pool.AddUtf8("forward/Reference");
  EXPECT_EQ(ScanOk(pool.Build()).dependencies, (Names{"forward.Reference"}));
}

TEST(PrefetchClassFile, ALongInTheLastTwoSlotsOfAFullPoolEndsTheScan) {
  ClassFileBuilder pool;
  pool.AddClass("first/Class");         // entries 1 and 2
  while (pool.AddInteger(0) < 65533) {  // entries 3 to 65533
  }
  pool.AddLong(1);  // entries 65534 and 65535: constant_pool_count is 65535
  const ClassScan scan = ScanOk(pool.BuildWithCount(65535));
  EXPECT_TRUE(scan.prefetchable());
  EXPECT_EQ(scan.dependencies, (Names{"first.Class"}));
}

TEST(PrefetchClassFile, AnEmptyPoolHasNoDependencies) {
  ClassFileBuilder pool;
  EXPECT_TRUE(ScanOk(pool.Build()).dependencies.empty());
}

class PrefetchClassFileUnsupportedTag : public ::testing::TestWithParam<int> {};

TEST_P(PrefetchClassFileUnsupportedTag, StopsTheScanWithoutAnError) {
  ClassFileBuilder pool;
  pool.AddClass("before/It");
  pool.AddRaw(static_cast<std::uint8_t>(GetParam()), ClassFileBuilder::U2(1));
  pool.AddClass("after/It");
  const ClassScan scan = ScanOk(pool.Build());
  EXPECT_FALSE(scan.prefetchable());
  EXPECT_EQ(scan.unsupported_tag, GetParam());
  EXPECT_TRUE(scan.dependencies.empty());
}

// 17 Dynamic, 19 Module, 20 Package, and tags no class-file version defines.
INSTANTIATE_TEST_SUITE_P(Prefetch, PrefetchClassFileUnsupportedTag,
                         ::testing::Values(17, 19, 20, 0, 2, 13, 14, 21, 255));

TEST(PrefetchClassFile, RejectsInputThatIsNotAClassFile) {
  EXPECT_NE(ScanError("").find("truncated"), std::string::npos);
  EXPECT_NE(ScanError(std::string("\xCA\xFE\xBA\xBE\0\0\0\x34\0", 9)).find("truncated"), std::string::npos);
  EXPECT_NE(ScanError("PK\x03\x04 this is a zip, not a class").find("magic"), std::string::npos);
  EXPECT_NE(ScanError(ClassFileBuilder().BuildWithCount(0)).find("constant_pool_count"), std::string::npos);
}

TEST(PrefetchClassFile, RejectsAPoolCountLargerThanThePool) {
  ClassFileBuilder pool;
  pool.AddClass("some/Class");
  const std::string class_file = pool.BuildWithCount(1000).substr(0, pool.pool_end());
  EXPECT_NE(ScanError(class_file).find("entry 3 of 999 is missing"), std::string::npos);
}

TEST(PrefetchClassFile, RejectsLengthsPastTheEnd) {
  ClassFileBuilder pool;
  pool.AddRaw(1, ClassFileBuilder::U2(500) + "short");
  EXPECT_NE(ScanError(pool.Build()).find("runs past the end"), std::string::npos);
}

TEST(PrefetchClassFile, RejectsReferencesToTheWrongKindOfConstant) {
  ClassFileBuilder class_to_integer;
  class_to_integer.AddInteger(7);
  class_to_integer.AddRaw(7, ClassFileBuilder::U2(1));
  EXPECT_NE(ScanError(class_to_integer.Build()).find("Class constant 2 refers to entry 1"),
            std::string::npos);

  ClassFileBuilder class_to_zero;
  class_to_zero.AddRaw(7, ClassFileBuilder::U2(0));
  EXPECT_NE(ScanError(class_to_zero.Build()).find("refers to entry 0"), std::string::npos);

  ClassFileBuilder class_out_of_range;
  class_out_of_range.AddRaw(7, ClassFileBuilder::U2(9));
  EXPECT_NE(ScanError(class_out_of_range.Build()).find("refers to entry 9"), std::string::npos);

  ClassFileBuilder descriptor_to_class;
  const std::uint16_t name = descriptor_to_class.AddUtf8("x");
  const std::uint16_t a_class = descriptor_to_class.AddClass("A");
  descriptor_to_class.AddRaw(12, ClassFileBuilder::U2(name) + ClassFileBuilder::U2(a_class));
  EXPECT_NE(ScanError(descriptor_to_class.Build()).find("NameAndType"), std::string::npos);

  ClassFileBuilder into_second_slot_of_long;
  into_second_slot_of_long.AddLong(1);
  into_second_slot_of_long.AddRaw(7, ClassFileBuilder::U2(2));
  EXPECT_FALSE(ScanClassFile(into_second_slot_of_long.Build()).ok());
}

TEST(PrefetchClassFile, EveryTruncationInsideThePoolIsAnError) {
  ClassFileBuilder pool;
  pool.AddClass("java/lang/Object");
  pool.AddLong(5);
  pool.AddNameAndType("run", "(Ljava/lang/Runnable;)V");
  pool.AddMethodHandle(6, 3);
  const std::string class_file = pool.Build();
  for (std::size_t length = 0; length < pool.pool_end(); ++length) {
    EXPECT_FALSE(ScanClassFile(class_file.substr(0, length)).ok()) << "cut at " << length;
  }
  // The scan reads nothing after the pool.
  EXPECT_TRUE(ScanClassFile(class_file.substr(0, pool.pool_end())).ok());
}

}  // namespace
}  // namespace perflab::prefetch
