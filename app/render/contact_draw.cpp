#include "render/contact_draw.h"

#include "render/joint_draw.h"

namespace jl::app {

void drawContacts(DebugDraw& lines, const World& world, const ViewOptions& options) {
    const Real dt = world.scene().settings.dt;
    const float scale = arrowScales(world, options).force;
    constexpr float kNormalLength = 0.08f;  // [m]
    for (const ContactPoint& c : world.contactPoints()) {
        const glm::vec3 p(c.point), n(c.normal);
        // a dot (a small ring in the contact plane), the normal, and the force on body 0
        lines.circle(p, n, 0.012f, c.separation > 0 ? colors::kGrey : colors::kYellow,
                     DebugDraw::Layer::Overlay);
        lines.line(p, p + kNormalLength * n, colors::kWhite, DebugDraw::Layer::Overlay);
        const glm::vec3 force((c.normalImpulse * c.normal + c.frictionImpulse) / dt);
        if (glm::length(force) * scale > 1e-3f)
            lines.arrow(p, p + scale * force, colors::kOrange, DebugDraw::Layer::Overlay);
    }
}

}  // namespace jl::app
