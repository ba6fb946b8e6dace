// jl::xmlEscape (jointlab/xml_text.h): the one escaping of text that the MJCF export, the URDF
// mesh loader and the benchmark's SVG chart write into XML.
#include "jointlab/xml_text.h"

#include <gtest/gtest.h>

namespace jl {
namespace {

TEST(XmlText, EscapesTheFiveReservedCharactersAndNothingElse) {
    EXPECT_EQ(xmlEscape("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&apos;d");
    // Everything else passes as it is, UTF-8 included.
    EXPECT_EQ(xmlEscape("arm_1 / joint-2 \u03b8 \u00b7 [m]"), "arm_1 / joint-2 \u03b8 \u00b7 [m]");
    EXPECT_EQ(xmlEscape(""), "");
    // Text, not markup: an entity in a name is escaped again and reads back as the same name.
    EXPECT_EQ(xmlEscape("&amp;"), "&amp;amp;");
}

}  // namespace
}  // namespace jl
