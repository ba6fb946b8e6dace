// JointLab app — starting up: the scene the app opens with (a file, the showcase example or the
// built-in one) and the command line's start options (--select, --tab, --compare, --sweep, …).
#include <cmath>
#include <cstdio>
#include <string>

#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "render/joint_frames.h"
#include "session/bench_scenes.h"
#include "session/default_scene.h"
#include "session/recent_files.h"
#include "shell/app.h"
#ifdef JOINTLAB_HAVE_INTEROP
#include "panels/import_dialog.h"
#endif
#include "viewport/viewport.h"

namespace jl::app {

bool App::loadInitialScene(std::string& error) {
    if (!offscreen()) {
        state_.files.recentListPath = defaultRecentFilesPath();
        state_.files.recent = loadRecentFiles(state_.files.recentListPath);
    }
    if (!options_.benchScene.empty()) {
        Scene scene;
        if (!makeBenchScene(options_.benchScene, scene, error)) return false;
        if (!state_.sim.setScene(std::move(scene), "", error)) return false;
        onSceneLoaded("");
        return true;
    }
#ifdef JOINTLAB_HAVE_INTEROP
    if (!options_.scenarioPath.empty() && isImportPath(options_.scenarioPath)) {
        // `jointlab MODEL.xml|MODEL.urdf`: imported as an untitled scene (Save asks where).
        Scene scene;
        std::string warning;
        if (!importModelFile(options_.scenarioPath, scene, warning, error)) return false;
        if (options_.adjustScene) options_.adjustScene(scene);
        if (!state_.sim.setScene(std::move(scene), "", error)) return false;
        onSceneLoaded("imported " + options_.scenarioPath);
        state_.importedModelPath = options_.scenarioPath;
        if (!warning.empty()) {
            std::fprintf(stderr, "jointlab: %s: %s\n", options_.scenarioPath.c_str(), warning.c_str());
            // Interactive only: a screenshot or a video shows the scene, not the notice.
            if (options_.screenshotPath.empty() && options_.video.path.empty())
                state_.importWarning = "Imported " + options_.scenarioPath + ". " + warning;
        }
        return true;
    }
#endif
    if (!options_.scenarioPath.empty()) {
        if (!state_.sim.loadFile(options_.scenarioPath, error)) return false;
        // jointlab run --video: the runner's overrides, on the scene with its saved state (if any),
        // which is where the run starts.
        if (options_.adjustScene) {
            Scene adjusted = state_.sim.documentScene();
            options_.adjustScene(adjusted);
            const std::string path = state_.sim.sourcePath();
            if (!state_.sim.setScene(std::move(adjusted), path, error)) return false;
        }
        rememberRecentFile(state_.files, options_.scenarioPath);
        onSceneLoaded("");
        return true;
    }
    const std::string showcase = findShowcaseScenario();
    if (!showcase.empty()) {
        std::string loadError;
        if (state_.sim.loadFile(showcase, loadError)) {
            state_.sim.setSourcePath(
                "");  // an example: Save asks where, it never overwrites the shipped file
            onSceneLoaded("");
            return true;
        }
        std::fprintf(stderr, "jointlab: %s; using the built-in showcase instead\n", loadError.c_str());
    }
    if (!state_.sim.setScene(makeBuiltInShowcase(), "", error)) {
        error = "the built-in showcase is invalid: " + error;
        return false;
    }
    onSceneLoaded("");
    return true;
}

bool App::applyStartOptions(std::string& error) {
    state_.view.showJoints = !options_.hideJoints;
    state_.view.showContacts = options_.showContacts;
    if (!options_.dockTab.empty()) {
        const std::string& t = options_.dockTab;
        state_.teach.requestTab = t == "plots"     ? DockTab::Plots
                                  : t == "rows"    ? DockTab::Rows
                                  : t == "step"    ? DockTab::Step
                                  : t == "tuner"   ? DockTab::Tuner
                                  : t == "advisor" ? DockTab::Advisor
                                                   : DockTab::Lesson;
    }
    if (options_.dockShare > 0.0f) state_.layoutPrefs.dockShare = options_.dockShare;
    if (options_.lessonStep > 0) {
        state_.teach.lessonTitle = state_.sim.scene().lesson.title;
        state_.teach.lessonStep = options_.lessonStep - 1;
    }
    if (options_.advisorFix > 0 && !applyAdvisorFix(state_, options_.advisorFix, error)) {
        error = "--advisor-fix: " + error;
        return false;
    }
    if (!options_.sweepDir.empty()) {
        if (std::string e = openSweepViewer(state_, options_.sweepDir); !e.empty()) {
            error = "--sweep: " + e;
            return false;
        }
    }
    if (options_.reference) {
        if (!MujocoReference::available()) {
            error = "--reference: this build has no MuJoCo (configured with JOINTLAB_BUILD_INTEROP=OFF)";
            return false;
        }
        state_.reference.setEnabled(true, state_.sim.world(), state_.sim.sceneRevision());
        if (options_.dockTab.empty()) state_.teach.requestTab = DockTab::Reference;
        if (!state_.reference.running()) {
            error = "--reference mujoco: " + state_.reference.refusal();
            return false;
        }
    }
    if (options_.compareGiven) {
        state_.compare.open = true;
        state_.compare.text = options_.compare;
        if (!state_.sim.startCompare(options_.compare, error)) {
            error = "--compare: " + error;
            return false;
        }
    }
    if (options_.select.empty()) return true;
    const Scene& scene = state_.sim.scene();
    Selection s = findSelection(scene, Selection::Kind::Joint, options_.select);
    if (s.kind == Selection::Kind::None) s = findSelection(scene, Selection::Kind::Body, options_.select);
    if (s.kind == Selection::Kind::None) {
        error = "--select: no joint or body named '" + options_.select + "' in the scenario";
        return false;
    }
    state_.selection = s;
    return true;
}

void App::reportSelectedAnchor() {
    const World* world = state_.sim.world();
    const Selection& s = state_.selection;
    if (!world || !s.isJoint() || static_cast<size_t>(s.index) >= world->scene().joints.size()) return;
    const JointDesc& joint = world->scene().joints[static_cast<size_t>(s.index)];
    const ScreenRect rect =
        viewportScreenRect(state_.layout, ImVec2(static_cast<float>(width_), static_cast<float>(height_)));
    const ViewportProjection view = ViewportProjection::of(state_.camera, rect.width(), rect.height());
    glm::vec2 pixel;
    if (!view.toScreen(glm::vec3(jointWorldFrames(world->scene(), world->bodies(), joint).a.p), pixel))
        return;
    // Machine-readable, for the screenshot test that looks for the joint's drawing around it.
    std::printf("jointlab: joint '%s' anchor at pixel %d %d\n", joint.name.c_str(),
                static_cast<int>(std::lround(pixel.x + rect.min.x)),
                static_cast<int>(std::lround(pixel.y + rect.min.y)));
}

}  // namespace jl::app
