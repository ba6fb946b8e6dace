// The sweep commands' command-line and file helpers (runner/sweep_io.h).
#include "runner/sweep_io.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/output_file.h"

namespace jl::runner::sweep_io {

bool parseWhole(std::string_view text, int64_t& out) {
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, out);
    return !text.empty() && ec == std::errc() && p == end;
}

std::string sweepUsage() {
    return "usage: jointlab sweep SPEC.json --out DIR [--jobs N] [--shard I/N]\n"
           "       jointlab sweep SPEC.json --check [--shard I/N]\n"
           "       jointlab sweep-merge DIR... --out DIR\n"
           "Runs a grid of headless runs over fields of a scenario (docs/sweeps.md) and writes\n"
           "DIR/results.csv (one row per run: the parameters, status, steps, the metrics) and\n"
           "DIR/manifest.json (the spec, the scenario's hash, version, revision, host, time).\n"
           "\n"
           "  --out DIR      the output folder (made if missing)\n"
           "  --jobs N       runs at once on N threads (1..256, default 1); the table is the same for any N\n"
           "  --shard I/N    run only the I-th of N disjoint slices of the grid (runs k with k mod N = "
           "I-1),\n"
           "                 for several machines; join the outputs with jointlab sweep-merge\n"
           "  --check        check the spec and print the number of runs; run and write nothing\n"
           "  -h, --help     this text\n"
           "\n"
           "sweep-merge joins the outputs of all N shards of one sweep; it refuses a shard given twice, a\n"
           "missing shard, and outputs of another spec, scenario or build.\n"
           "Exit codes: 0 ok (diverged runs are results: their status column says so), 2 file error,\n"
           "64 bad arguments or a bad spec (nothing is run or written).\n";
}

Parsed takeValue(int argc, char** argv, int& i, std::string_view arg, std::string_view& flag,
                 std::string_view& value, std::string& error) {
    flag = arg;
    if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
        flag = arg.substr(0, eq);
        value = arg.substr(eq + 1);
        return Parsed::Run;
    }
    if (i + 1 >= argc) {
        error = std::string(flag) + ": missing value";
        return Parsed::Error;
    }
    value = argv[++i];
    return Parsed::Run;
}

std::string hostName() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

std::string utcNow() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

bool readAll(const std::string& path, std::string& text, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path + ": cannot read: " + std::strerror(errno);
        return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return true;
}

bool makeFolder(const std::string& dir, std::string& error) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        error = dir + ": cannot make the output folder" + (ec ? ": " + ec.message() : "");
        return false;
    }
    return true;
}

bool writeOutputs(const std::string& dir, const std::string& csv, const Json& manifest, std::string& error) {
    OutputFile results, man;
    if (!results.open(dir + "/results.csv", error) || !man.open(dir + "/manifest.json", error)) return false;
    results.write(csv);
    man.write(manifest.dump(2) + "\n");
    return results.commit(error) && man.commit(error);
}

int fail(const char* cmd, int code, const std::string& message) {
    std::fprintf(stderr, "jointlab %s: %s\n", cmd, message.c_str());
    return code;
}

}  // namespace jl::runner::sweep_io
