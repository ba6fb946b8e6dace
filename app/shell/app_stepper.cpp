// The stepper's arrows in the viewport, and the App's side of the stepper's requests (the logic is
// session/stepper_session.cpp).
#include <algorithm>

#include "render/debug_draw.h"
#include "shell/app.h"

namespace jl::app {

void App::syncStepper() {
    jl::app::syncStepper(state_.sim, state_.stepper);
}

void App::applyStepperRequest(const UiRequests& r) {
    // The keys work from anywhere: the Step tab comes to the front to show what they did.
    if (applyStepperAction(state_.sim, state_.stepper, r.stepper)) state_.teach.requestTab = DockTab::Step;
}

void App::drawStepperArrows() {
    const StepInspector& ins = *state_.stepper.inspector;
    const StepInspector::Unit* u = ins.current();
    const World* world = state_.sim.world();
    if (!u || !world) return;
    // One scale for the whole step, so an arrow's length compares across visits: the largest speed
    // any visit left a body with is drawn 0.6 m long.
    Real vMax = 1e-9, wMax = 1e-9;
    for (const StepInspector::Visit& v : ins.visits()) {
        vMax = std::max({vMax, glm::length(v.v0), glm::length(v.v1)});
        wMax = std::max({wMax, glm::length(v.w0), glm::length(v.w1)});
    }
    const Real vScale = 0.6 / vMax, wScale = 0.6 / wMax;
    const StepInspector::Visit& last = ins.visits()[u->first + static_cast<size_t>(u->count) - 1];
    const Color kLinear{0.30f, 0.85f, 1.00f, 1.0f}, kAngular{1.00f, 0.45f, 0.85f, 1.0f};
    const Color kBefore{0.60f, 0.62f, 0.66f, 0.9f};
    auto arrows = [&](int b, const Vec3& v, const Vec3& w) {
        if (b < 0 || static_cast<size_t>(b) >= world->bodies().size()) return;
        // Before the visit: the body's velocity after its previous visit (or at the step's start).
        Vec3 v0 = world->bodies()[static_cast<size_t>(b)].linearVelocity;
        Vec3 w0 = world->bodies()[static_cast<size_t>(b)].angularVelocity;
        for (size_t k = u->first; k-- > 0;) {
            const StepInspector::Visit& p = ins.visits()[k];
            if (p.body0 == b || p.body1 == b) {
                v0 = p.body0 == b ? p.v0 : p.v1;
                w0 = p.body0 == b ? p.w0 : p.w1;
                break;
            }
        }
        const glm::vec3 c(world->bodies()[static_cast<size_t>(b)].pose.p);
        lines_.arrow(c, c + glm::vec3(v0 * vScale), kBefore, DebugDraw::Layer::Overlay);
        lines_.arrow(c, c + glm::vec3(w0 * wScale), kBefore, DebugDraw::Layer::Overlay);
        lines_.outlinedArrow(c, c + glm::vec3(v * vScale), kLinear);
        lines_.outlinedArrow(c, c + glm::vec3(w * wScale), kAngular);
    };
    arrows(last.body0, last.v0, last.w0);
    arrows(last.body1, last.v1, last.w1);
}

}  // namespace jl::app
