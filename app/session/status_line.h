// JointLab app — the notice at the bottom of the window (and, when it is a refusal, at the top of
// the Inspector): the last thing done, or what went wrong. An error stays until the problem is
// gone or the person does something that works: a refusal is cleared by the next edit that goes
// through (also one step of a slider drag), by a new selection, by play, pause or reset; a
// divergence's "simulation paused" by the next good step.
#pragma once

#include <string>
#include <utility>

namespace jl::app {

class StatusLine {
public:
    /// What raised an error, so that it goes when that problem does.
    enum class Source {
        Action,      ///< a refused edit, a failed save, a click that found nothing: cleared by a success
        Divergence,  ///< the simulation diverged and paused: cleared when a step goes through
    };

    void info(std::string text) {
        text_ = std::move(text);
        error_ = false;
    }
    void error(std::string text, Source source = Source::Action) {
        text_ = std::move(text);
        error_ = true;
        source_ = source;
    }
    /// Something the person did went through: an error of theirs is no longer news.
    void succeeded() {
        if (error_ && source_ == Source::Action) clear();
    }
    /// The problem `source` reported is gone.
    void resolved(Source source) {
        if (error_ && source_ == source) clear();
    }
    void clear() {
        text_.clear();
        error_ = false;
    }

    const std::string& text() const { return text_; }
    bool isError() const { return error_; }
    bool empty() const { return text_.empty(); }

private:
    std::string text_;
    bool error_ = false;
    Source source_ = Source::Action;
};

}  // namespace jl::app
