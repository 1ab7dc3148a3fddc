// The constant-pool walk both class-file readers share: what it keeps of each entry, and where Remoting's
// sizes and the JVM's part ways.
#include "models/prefetch/constant_pool.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/prefetch/class_file_builder.h"

namespace perflab::prefetch {
namespace {

using testing::ClassFileBuilder;

Result<ConstantPool> walk(const std::string& class_file, ConstantSizes sizes) {
  ByteCursor in(class_file);
  return read_constant_pool(in, sizes);
}

TEST(PrefetchConstantPool, KeepsTagsTextAndReferencesByIndex) {
  ClassFileBuilder builder;
  const std::uint16_t self = builder.add_class("a/B");                   // 1 (Utf8), 2 (Class)
  const std::uint16_t wide = builder.add_long(7);                        // 3 and 4
  const std::uint16_t member = builder.add_name_and_type("f", "La/C;");  // 5, 6 (Utf8), 7
  const std::string class_file = builder.build();  // the pool's Utf8 views point into it
  Result<ConstantPool> pool = walk(class_file, ConstantSizes::kRemoting);
  ASSERT_TRUE(pool.ok()) << pool.status().message();
  ASSERT_EQ(pool->count(), 8u);
  EXPECT_FALSE(pool->unsized.has_value());
  EXPECT_EQ(pool->tags[self], kClass);
  EXPECT_EQ(pool->tags[wide], kLong);
  EXPECT_EQ(pool->tags[wide + 1], 0) << "a Long's second slot is no constant";
  EXPECT_EQ(pool->tags[member], kNameAndType);
  EXPECT_EQ(*pool->referenced_utf8(self, pool->name_index[self]), "a/B");
  EXPECT_EQ(*pool->referenced_utf8(member, pool->descriptor_index[member]), "La/C;");

  Result<std::string_view> not_utf8 = pool->referenced_utf8(member, wide);
  ASSERT_FALSE(not_utf8.ok());
  EXPECT_NE(not_utf8.status().message().find("NameAndType constant 7 refers to entry 3"), std::string::npos)
      << not_utf8.status().message();
}

// Remoting's scanner cannot size Dynamic, Module or Package and stops there; the JVM reads past them.
// A tag no specification defines stops both.
TEST(PrefetchConstantPool, RemotingStopsWhereTheJvmGoesOn) {
  ClassFileBuilder builder;
  builder.add_class("a/B");
  const std::uint16_t dynamic = builder.add_raw(kDynamic, ClassFileBuilder::U4(0));
  builder.add_raw(kModule, ClassFileBuilder::U2(1));
  builder.add_raw(kPackage, ClassFileBuilder::U2(1));
  const std::uint16_t last = builder.add_class("a/C");
  const std::string class_file = builder.build();

  Result<ConstantPool> remoting = walk(class_file, ConstantSizes::kRemoting);
  ASSERT_TRUE(remoting.ok()) << remoting.status().message();
  ASSERT_TRUE(remoting->unsized.has_value());
  EXPECT_EQ(remoting->unsized->index, dynamic);
  EXPECT_EQ(remoting->unsized->tag, kDynamic);

  Result<ConstantPool> jvm = walk(class_file, ConstantSizes::kJvms);
  ASSERT_TRUE(jvm.ok()) << jvm.status().message();
  EXPECT_FALSE(jvm->unsized.has_value());
  EXPECT_EQ(*jvm->referenced_utf8(last, jvm->name_index[last]), "a/C");

  builder.add_raw(21, ClassFileBuilder::U2(0));
  Result<ConstantPool> unknown = walk(builder.build(), ConstantSizes::kJvms);
  ASSERT_TRUE(unknown.ok()) << unknown.status().message();
  ASSERT_TRUE(unknown->unsized.has_value());
  EXPECT_EQ(unknown->unsized->tag, 21);
}

TEST(PrefetchConstantPool, TruncationNamesTheEntry) {
  ClassFileBuilder builder;
  builder.add_class("a/B");
  const std::uint16_t wide = builder.add_long(7);
  const std::string class_file = builder.build();
  const std::string cut = class_file.substr(0, builder.pool_end() - 3);  // inside the Long
  for (ConstantSizes sizes : {ConstantSizes::kRemoting, ConstantSizes::kJvms}) {
    Result<ConstantPool> pool = walk(cut, sizes);
    ASSERT_FALSE(pool.ok());
    EXPECT_NE(pool.status().message().find("constant pool entry " + std::to_string(wide) + " (tag 5)"),
              std::string::npos)
        << pool.status().message();
  }
}

}  // namespace
}  // namespace perflab::prefetch
