#include "shell/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <system_error>
#include <utility>

#include "panels/panels.h"
#ifdef JOINTLAB_HAVE_INTEROP
#include "panels/import_dialog.h"
#endif
#include "panels/plots_panels.h"
#include "render/contact_draw.h"
#include "render/gl.h"
#include "render/gl_context.h"
#include "render/joint_draw.h"
#include "render/joint_frames.h"
#include "render/plot_image.h"
#include "render/scene_draw.h"
#include "render/screenshot.h"
#include "session/bench_scenes.h"
#include "session/default_scene.h"
#include "session/recent_files.h"
#include "shell/app_loop.h"
#include "shell/screen_fit.h"
#include "viewport/viewport.h"
#include "viewport/viewport_tools.h"

namespace jl::app {

namespace {

constexpr int kDefaultWidth = 1600, kDefaultHeight = 900;  ///< shrunk to fit the monitor's work area
constexpr int kDefaultScreenshotWidth = 1440, kDefaultScreenshotHeight = 900;
constexpr int kScreenshotSamples = 4;
constexpr const char* kUiFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";  // fonts-dejavu-core
constexpr float kUiFontSize = 15.0f;                                                ///< at UI scale 1 [px]
/// Latin-1, Greek (α, ω, μ), general punctuation (–, …), super/subscripts, arrows, minus sign,
/// box drawing (the row inspector's block brackets ┌ │ └).
constexpr ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x2027, 0x2070, 0x209F,
                                    0x2190, 0x21FF, 0x2212, 0x2212, 0x2500, 0x257F, 0};
const ImVec4 kWindowClearColor{0.09f, 0.10f, 0.11f, 1.0f};

void applyStyle() {
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 1.0f;
    style.WindowPadding = ImVec2(10.0f, 8.0f);
    style.ItemSpacing = ImVec2(8.0f, 5.0f);
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 0.97f);
    c[ImGuiCol_TitleBg] = ImVec4(0.15f, 0.17f, 0.20f, 1.0f);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.18f, 0.24f, 0.33f, 1.0f);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.14f, 0.15f, 0.17f, 1.0f);
    c[ImGuiCol_Header] = ImVec4(0.26f, 0.40f, 0.58f, 0.55f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.30f, 0.46f, 0.66f, 0.80f);
}

std::string timestampedScreenshotName() {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char name[64];
    std::strftime(name, sizeof(name), "jointlab-%Y%m%d-%H%M%S.png", &local);
    return name;
}

/// The first joint if there is one, else the first dynamic body, else nothing: something for the
/// inspector to show on start.
Selection initialSelection(const Scene& scene) {
    if (!scene.joints.empty()) return Selection::joint(0);
    for (size_t i = 0; i < scene.bodies.size(); ++i)
        if (scene.bodies[i].motion == MotionType::Dynamic) return Selection::body(static_cast<int>(i));
    return Selection{};
}

}  // namespace

// [SECTION] Life cycle

int runApp(const AppOptions& options) {
    App app(options);
    return app.run();
}

App::App(AppOptions options) : options_(std::move(options)) {
    state_.sim.onSync = [this](const World& world, bool jumped) {
        state_.reference.sync(world, jumped, state_.sim.sceneRevision());
    };
    const bool shot = offscreen();
    if (!shot) {  // the window and the layout as the person left them
        uiSettingsPath_ = defaultUiSettingsPath();
        const UiSettings remembered = loadUiSettings(uiSettingsPath_);
        state_.panels = remembered.panels;
        state_.layoutPrefs = remembered.layout;
        width_ = remembered.windowWidth;
        height_ = remembered.windowHeight;
    }
    if (width_ <= 0 || height_ <= 0) {
        width_ = videoMode() ? kDefaultVideoWidth : shot ? kDefaultScreenshotWidth : kDefaultWidth;
        height_ = videoMode() ? kDefaultVideoHeight : shot ? kDefaultScreenshotHeight : kDefaultHeight;
    }
    if (options_.width > 0) width_ = options_.width;
    if (options_.height > 0) height_ = options_.height;
    // Screenshot mode leaves the user's autosaves alone unless a folder is named.
    recoveryDir_ =
        !options_.recoveryDir.empty() ? options_.recoveryDir : (shot ? std::string() : defaultRecoveryDir());
    autosave_.setInterval(shot ? 0.0 : options_.autosaveSeconds);
}

App::~App() {
    shutdown();
}

int App::run() {
    std::string error;
    // The scene first: a bad file is reported without needing a display.
    if (!loadInitialScene(error)) {
        std::fprintf(stderr, "jointlab: %s\n", error.c_str());
        return 1;
    }
    if (!applyStartOptions(error)) {
        std::fprintf(stderr, "jointlab: %s\n", error.c_str());
        return 1;
    }
    // A video that needs ffmpeg says so before anything is rendered.
    if (videoMode() && options_.video.format != VideoFormat::PngFolder && findFfmpeg(error).empty()) {
        std::fprintf(stderr, "jointlab: --video: %s\n", error.c_str());
        return kExitNoFfmpeg;
    }
    if (!initGraphics(error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    initImGui();
    lastFrameTime_ = now();
    findCrashRecoveries();
    if (screenshotMode()) return runScreenshot();
    if (videoMode()) return runVideo();
    if (benchMode()) return runBenchmark();
    return runInteractive();
}

double App::now() const {
    if (window_) return glfwGetTime();
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool App::initGraphics(std::string& error) {
    WindowRequest request;
    request.width = width_;
    request.height = height_;
    request.visible = !offscreen();
    request.fitToWorkArea = !offscreen() && options_.width <= 0;  // an explicit --size is taken as given
    WindowInfo info;
    // Off screen without a display, the context comes from EGL's surfaceless platform: no X server
    // needed. With a display GLFW's hidden window is used, and EGL is the fall-back when it fails.
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    const bool haveDisplay = (display && *display) || (wayland && *wayland);
    if (haveDisplay || !offscreen()) window_ = createMainWindow(request, info, error);
    if (!window_ && offscreen()) {
        std::string eglError;
        if (!egl_.create(eglError)) {
            if (!haveDisplay) error = "jointlab: cannot render without a display:";
            error += "\nEGL (Mesa's surfaceless platform, for rendering without a display): " + eglError +
                     ".\nRun it under a virtual display instead: xvfb-run -a jointlab ...";
            return false;
        }
        error.clear();
    }
    if (!window_ && !egl_.valid()) return false;
    if (!offscreen()) {
        width_ = info.width;
        height_ = info.height;
    }
    uiScale_ = chooseUiScale(options_.scale, offscreen() ? 1.0f : info.contentScale);
    refreshPeriod_ = 1.0 / info.refreshRate;
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    const char* rendererName = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    state_.glVersion =
        std::string(version ? version : "?") + " (" + (rendererName ? rendererName : "?") + ")";
    if (!renderer_.init(error)) {
        error = "jointlab: cannot set up the renderer: " + error;
        return false;
    }
    if (offscreen() && !offscreen_.create(width_, height_, kScreenshotSamples, error)) {
        error = "jointlab: " + error;
        return false;
    }
    updateWindowTitle();
    return true;
}

void App::initImGui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is ours (ui_settings.h); write nothing into the working directory
    applyUiScale(uiScale_);
    if (window_) {
        installInputWatch(window_);  // before ImGui's callbacks, which chain to it
        ImGui_ImplGlfw_InitForOpenGL(window_, true);
    } else {
        io.BackendPlatformName = "jointlab_egl";  // no window: frame() feeds the display size and time
    }
    ImGui_ImplOpenGL3_Init("#version 330 core");
    imguiReady_ = true;
}

void App::applyUiScale(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    applyStyle();
    ImGui::GetStyle().ScaleAllSizes(scale);
    io.Fonts->Clear();
    std::error_code ec;
    if (std::filesystem::is_regular_file(kUiFont, ec)) {
        io.Fonts->AddFontFromFileTTF(kUiFont, std::round(kUiFontSize * scale), nullptr, kGlyphRanges);
    } else {
        ImFontConfig config;
        config.SizePixels = std::round(13.0f * scale);  // Dear ImGui's own font, scaled
        io.Fonts->AddFontDefault(&config);
    }
}

void App::shutdown() {
    if (imguiReady_) {
        ImGui_ImplOpenGL3_Shutdown();
        if (window_) ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        imguiReady_ = false;
    }
    video_.abandon();
    if (window_ || egl_.valid()) {
        renderer_.shutdown();
        offscreen_.destroy();
    }
    if (window_) {
        destroyMainWindow(window_);
        window_ = nullptr;
    }
    egl_.destroy();
}

// [SECTION] Frame

void App::frame() {
    const double nowSeconds = now();
    FrameStats& stats = state_.stats;
    stats.frameSeconds = nowSeconds - lastFrameTime_;
    lastFrameTime_ = nowSeconds;
    stats.smoothedSeconds = stats.smoothedSeconds == 0.0
                                ? stats.frameSeconds
                                : 0.9 * stats.smoothedSeconds + 0.1 * stats.frameSeconds;
    PhaseClock clock;
    PhaseTimes phases;
    if (state_.videoExport.running) prepareVideoExportFrame();  // File > Export video: the next step
    syncStepper();  // playing on ends the stepping before the step is taken
    stats.stepsLastFrame = state_.sim.advance(stats.frameSeconds);
    syncStepper();
    if (state_.sim.divergenceCount() != state_.divergencesSeen) announceDivergence();
    phases.sim = clock.lap();
    autosaveIfDue(nowSeconds);
    state_.files.nowSeconds = static_cast<double>(std::time(nullptr));

    ImGui_ImplOpenGL3_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    if (window_)
        ImGui_ImplGlfw_NewFrame();
    else  // EGL: no window, no input; one physics step per frame at the scene's pace
        io.DeltaTime = 1.0f / 60.0f;
    if (offscreen()) {
        // Draw at exactly the requested size, whatever size the hidden window got.
        io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
        io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    }
    ImGui::NewFrame();
    UiRequests requests;
    buildUi(requests);
    ImGui::Render();
    phases.ui = clock.lap();

    RenderOptions renderOptions;
    const FrameView view = prepareViewport(renderOptions);
    phases.draw = clock.lap();

    int fbWidth = width_, fbHeight = height_;
    if (offscreen())
        offscreen_.bindForDrawing();
    else
        glfwGetFramebufferSize(window_, &fbWidth, &fbHeight);
    glViewport(0, 0, fbWidth, fbHeight);
    glClearColor(kWindowClearColor.x, kWindowClearColor.y, kWindowClearColor.z, kWindowClearColor.w);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    renderer_.render(view, renderOptions, lines_);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    finishPlotsFrame(state_, [this] {  // a plot's "Save as PNG" reads the frame just rendered
        if (offscreen()) {
            offscreen_.resolveForReading();
        } else {
            glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
            glReadBuffer(GL_BACK);
        }
    });
    if (state_.videoExport.running) captureVideoExportFrame();
    phases.gl = clock.lap();

    applyRequests(requests);
    if (!offscreen()) updateWindowTitle();
    phases.ui += clock.lap();
    stats.phases = phases;
    smoothPhases(stats.smoothedPhases, phases);
    if (benchMode()) benchTimes_.push_back(phases);
}

void App::buildUi(UiRequests& requests) {
    const ImGuiIO& io = ImGui::GetIO();
    syncSceneViews();
    state_.layout = computeFrameLayout(state_, io.DisplaySize, uiScale_);
    drawMainMenuBar(state_, requests);
    drawScenePanel(state_, requests);
    drawSimulationPanel(state_, requests);
    drawInspectorPanel(state_, requests);
    drawPlotsDock(state_, requests);
    drawSplitters(state_);
    drawStatusBar(state_);
    drawOpenDialog(state_, requests);
#ifdef JOINTLAB_HAVE_INTEROP
    drawImportDialog(state_, requests);
#endif
    drawFileDialogs(state_, requests);
    drawDivergenceNotice(state_);
    drawHelpWindows(state_);
    drawSweepViewer(state_, requests);
    drawVideoExport(state_, requests);
    drawComparePanel(state_, requests);

    const ScreenRect rect = viewportScreenRect(state_.layout, io.DisplaySize);
    // A video shows the scene, not the editing tools (the timeline stays: it says which step).
    ScreenRect toolbar{rect.min, rect.min};
    if (!videoMode() && !state_.videoExport.running) toolbar = drawViewportToolbar(state_, rect, requests);
    drawTimeline(state_, rect, requests);
    keepSceneInView(rect, toolbar.max.y);
    if (!offscreen() && !state_.videoExport.running) {  // an export's frames show no mouse tools
        handleViewportMouse(state_, rect, requests);
        handleShortcuts(state_, requests);
    }
    drawViewportOverlay(state_, rect, toolbar);
    drawAdvisorMarkers(state_, rect);
}

void App::keepSceneInView(const ScreenRect& rect, float toolbarBottom) {
    // A little air under the tool bar and over the timeline (drawn whenever a run has a step).
    state_.viewportCover.top = toolbarBottom > rect.min.y ? toolbarBottom - rect.min.y + px(4.0f) : 0.0f;
    state_.viewportCover.bottom = timelineHeight() + px(4.0f);
    const PanelRect free =
        uncoveredViewport(PanelRect{0.0f, 0.0f, rect.width(), rect.height()}, state_.viewportCover);
    state_.cameraFit.update(state_.camera, rect.width(), rect.height(),
                            ViewportArea{free.x, free.y, free.right(), free.bottom()});
}

void App::syncSceneViews() {
    const Scene& scene = state_.sim.scene();
    if (state_.index.sync(scene, state_.sim.sceneRevision()))
        state_.looks = computeToothedLooks(scene, state_.index);
    for (std::string& notice : state_.sim.takeNotices()) state_.status.error(std::move(notice));
    if (auto note = state_.sim.takeHistoryNote()) {
        if (note->refused)
            state_.status.error(std::move(note->text));
        else
            state_.status.info(std::move(note->text));
    }
    if (!state_.sim.divergence()) state_.status.resolved(StatusLine::Source::Divergence);
}

FrameView App::prepareViewport(RenderOptions& options) {
    const ImGuiIO& io = ImGui::GetIO();
    const ScreenRect rect = viewportScreenRect(state_.layout, io.DisplaySize);
    FrameView view;
    view.viewport = toFramebufferRect(rect, io.DisplaySize, io.DisplayFramebufferScale);
    const float aspect = static_cast<float>(view.viewport.width) / static_cast<float>(view.viewport.height);
    const OrbitCamera& camera = state_.camera;
    view.view = camera.view();
    view.projection = camera.projection(aspect);
    view.cameraPosition = camera.eye();
    view.focus = camera.target;
    view.gridFadeDistance = std::max(30.0f, camera.distance * 4.0f);

    renderer_.clearInstances();
    lines_.clear();
    options.showGrid = state_.view.showGrid;
    options.sceneLineWidth *= uiScale_;  // lines as thick as the text at any scale
    options.overlayLineWidth *= uiScale_;
    if (const World* world = state_.sim.world()) {
        options.showGround = world->scene().settings.groundPlane;
        drawBodies(renderer_, world->scene(), world->bodies(), state_.selection, state_.index, state_.looks);
        const ShadowRun& shadow = state_.sim.shadow();
        if (const World* other = shadow.world(); other && state_.view.showShadowRun)
            drawShadowBodies(renderer_, other->scene(), other->bodies(), shadowColour(shadow.kind()));
        if (state_.reference.running() && state_.view.showShadowRun)
            drawShadowBodies(renderer_, world->scene(), state_.reference.bodies(), kReferenceColour);
        drawJoints(lines_, *world, state_.selection, state_.view);
        if (state_.view.showContacts) drawContacts(lines_, *world, state_.view);
        drawSelectionOutline(lines_, world->scene(), world->bodies(), state_.selection);
        if (state_.sim.drag) drawDragSpring(lines_, *state_.sim.drag, arrowScales(*world, state_.view));
        if (state_.stepper.inspector) drawStepperArrows();
        // The gizmo is for the person at the mouse; screenshots show the scene without it.
        if (!offscreen() && !state_.videoExport.running) drawToolOverlay(lines_, state_, rect);
    }
    if (state_.view.showAxes) drawWorldAxes(lines_, 1.0f);
    return view;
}

// [SECTION] Requests

void App::applyCompareRequests(const UiRequests& r) {
    std::string error;
    CompareState& c = state_.compare;
    if (r.startCompare) {
        c.message.clear();
        if (!state_.sim.startCompare(*r.startCompare, error)) c.message = error;
    }
    if (r.stopCompare) state_.sim.stopCompare();
    if (r.toggleReference) {
        state_.reference.setEnabled(!state_.reference.enabled(), state_.sim.world(),
                                    state_.sim.sceneRevision());
        if (state_.reference.enabled()) {
            state_.panels.plots = true;  // its tab is in the plots dock
            state_.teach.requestTab = DockTab::Reference;
        }
    }
    if (r.swapCompare || r.keepCompareB) {
        const bool ok = r.swapCompare ? state_.sim.swapCompare(error) : state_.sim.keepCompareB(error);
        if (ok) {
            // The live scene changed under the editor: Save must write it, undo does not know it.
            state_.editor.markUnsaved();
            setMessage(r.swapCompare ? "swapped: B is the live run now, A the comparison"
                                     : "kept B: it is the live run now",
                       false);
        } else {
            c.message = error;
        }
    }
}

void App::applyRequests(const UiRequests& r) {
    std::string error;
    SimClock& clock = state_.sim.clock;
    // Doing something that works answers an error shown before (StatusLine).
    if ((r.select && !(r.selection == state_.selection)) || r.togglePlay || r.singleSteps > 0 || r.reset)
        state_.status.succeeded();
    if (r.select) state_.selection = r.selection;
    if (r.togglePlay) clock.playing = !clock.playing;
    if (r.singleSteps > 0 && !clock.playing) clock.pendingSingleSteps += r.singleSteps;
    if (r.switchBranch >= 0) state_.sim.switchBranch(r.switchBranch);
    if (r.deleteBranch >= 0 && !state_.sim.deleteBranch(r.deleteBranch, error)) state_.status.error(error);
    if (r.seekStep >= 0) state_.sim.seekStep(r.seekStep);
    applyCompareRequests(r);
    if (r.setTimeScale) clock.timeScale = r.timeScale;
    if (r.openDialog) state_.openDialogRequested = true;
    if (r.saveScreenshot) {
        // The frame just drawn is still in the back buffer.
        std::string path = timestampedScreenshotName();
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glReadBuffer(GL_BACK);
        if (writeScreenshot(path, error))
            setMessage("saved " + path, false);
        else
            setMessage(error, true);
    }
    applyEditRequests(r);
    applyStepperRequest(r);
    if (r.reset) {
        const auto& start = state_.sim.startState();
        if (!state_.sim.reset(error))
            setMessage(error, true);
        else if (start)
            setMessage("reset to the state the file was saved in (t = " + std::to_string(start->time) +
                           " s); Simulation > Reset to the set-up starts from t = 0",
                       false);
        else
            setMessage("reset to the initial state", false);
    }
    if (r.resetToSetUp) {
        if (state_.sim.resetToSetUp(error)) {
            state_.editor.markUnsaved();  // Save now writes the scene without the saved state
            setMessage(
                "reset to the set-up at t = 0; the saved run state is dropped (Save writes the scene without "
                "it)",
                false);
        } else {
            setMessage(error, true);
        }
    }
    applyRecoveryRequests(r);
    applyVideoExportRequests(r);
    applyFileRequests(r, state_.files, *this);
    if (r.resetCamera) startCameraFit();
    if (r.frameView) frameView();
}

void App::startCameraFit() {
    state_.camera = OrbitCamera::fromState(state_.sim.scene().camera);
    const World* world = state_.sim.world();
    if (world)
        state_.cameraFit.start(state_.camera, bodyOutlines(world->scene(), world->bodies()));
    else
        state_.cameraFit.active = false;
}

void App::onSceneLoaded(const std::string& what) {
    startCameraFit();
    state_.selection = initialSelection(state_.sim.scene());
    state_.editor.resetHistory();
    state_.tools.haveFirst = false;
    state_.tools.preview.reset();
    state_.tools.gizmoDrag.reset();
    // Nothing of the last document stays: its colours, folds, convergence curves, plot state.
    state_.index.clearColours();
    state_.sceneTree.folded.clear();
    state_.plotsPanel.forgetRun();
    state_.status.clear();
    state_.teach = TeachState{};
    state_.importedModelPath.clear();  // an import sets it again after this
    if (!state_.sim.scene().lesson.empty()) state_.teach.requestTab = DockTab::Lesson;
    documentChanged();
    if (!what.empty()) setMessage(what, false);
    if (window_) updateWindowTitle();
}

void App::frameView() {
    const World* world = state_.sim.world();
    if (!world) return;
    BoundingSphere bounds = viewBounds(world->scene(), state_.index, world->bodies(), state_.selection);
    state_.camera.frame(bounds.center, bounds.radius);
    // The sphere in the middle of the viewport's height, moved clear of the tool bar and the timeline.
    const ScreenRect rect = viewportScreenRect(state_.layout, ImGui::GetIO().DisplaySize);
    const PanelRect free =
        uncoveredViewport(PanelRect{0.0f, 0.0f, rect.width(), rect.height()}, state_.viewportCover);
    const glm::vec4 sphere(bounds.center, bounds.radius);
    state_.camera = keepInArea(state_.camera, std::span<const glm::vec4>(&sphere, 1), rect.width(),
                               rect.height(), ViewportArea{free.x, free.y, free.right(), free.bottom()});
}

bool App::writeScreenshot(const std::string& path, std::string& error) {
    int w = width_, h = height_;
    if (!offscreen()) glfwGetFramebufferSize(window_, &w, &h);
    RgbImage image = readFramebuffer(0, 0, w, h);
    return writePng(path, image, error, {{"the open scenario", state_.sim.sourcePath()}});
}

void App::announceDivergence() {
    state_.divergencesSeen = state_.sim.divergenceCount();
    const std::optional<Divergence>& d = state_.sim.divergence();
    if (!d) return;
    setMessage("simulation paused: " + d->message, true);
    // Select the culprit so the Inspector shows its parameters and the viewport its frames.
    if (d->joint >= 0)
        state_.selection = Selection::joint(d->joint);
    else if (d->body >= 0)
        state_.selection = Selection::body(d->body);
    state_.divergencePopup = true;
}

void App::setMessage(std::string text, bool isError) {
    if (isError)
        state_.status.error(std::move(text));
    else
        state_.status.info(std::move(text));
}

void App::updateWindowTitle() {
    const std::string& path = state_.sim.sourcePath();
    std::string title =
        "JointLab - " +
        (path.empty() ? std::string("untitled") : std::filesystem::path(path).filename().string()) +
        (state_.editor.dirty() ? " *" : "");
    if (title == windowTitle_) return;
    windowTitle_ = title;
    if (window_) glfwSetWindowTitle(window_, title.c_str());
}

}  // namespace jl::app
