// Google Benchmark rows for replaying real editing traces, side by side with
// yjs. Inputs come from yjs_trace.cjs (see CMakeLists.txt, target ydoc_bench_run).
//
// usage: ydoc_trace_bench PREFIX... [benchmark flags]
//   PREFIX.updates.bin / PREFIX.state.bin / PREFIX.yjs.json as written by yjs_trace.cjs
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/lib0.hpp"
#include "docs/ydoc/update.hpp"
#include "docs/ydoc/utf.hpp"
#include "docs/ydoc/xml.hpp"

namespace {

using docs::ydoc::Bytes;
using docs::ydoc::Doc;
using docs::ydoc::Json;

struct Patch {
  uint64_t pos;
  uint64_t del;
  std::u16string insert;
};

// NOLINTNEXTLINE(bugprone-exception-escape): its implicit moves; a throw there ends the benchmark
struct Trace {
  std::string name;
  std::vector<std::vector<Patch>> txns;  // sequential traces only
  std::vector<Bytes> updates;
  Bytes state;
  Json yjs;
};

Bytes readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  return Bytes(std::istreambuf_iterator<char>(f), {});
}

Trace loadTrace(const std::string& prefix) {
  Trace t;
  t.name = prefix.substr(prefix.find_last_of('/') + 1);
  const Bytes all = readFile(prefix + ".updates.bin");
  docs::ydoc::Decoder dec(all);
  const uint64_t n = dec.readVarUint();
  for (uint64_t i = 0; i < n; ++i) {
    const auto u = dec.readVarUint8Array();
    t.updates.emplace_back(u.begin(), u.end());
  }
  t.state = readFile(prefix + ".state.bin");
  if (std::ifstream(prefix + ".patches.bin").good()) {
    const Bytes p = readFile(prefix + ".patches.bin");
    docs::ydoc::Decoder pd(p);
    const uint64_t txns = pd.readVarUint();
    for (uint64_t i = 0; i < txns; ++i) {
      std::vector<Patch> patches(pd.readVarUint());
      for (auto& patch : patches) {
        patch.pos = pd.readVarUint();
        patch.del = pd.readVarUint();
        patch.insert = docs::ydoc::utf8ToUtf16(pd.readVarString());
      }
      t.txns.push_back(std::move(patches));
    }
  }
  const Bytes js = readFile(prefix + ".yjs.json");
  t.yjs = Json::parse(js.begin(), js.end());
  return t;
}

std::vector<Trace>& traces() {
  static std::vector<Trace> all;
  return all;
}

// Replays the trace as local edits under client 1, like the yjs script does.
Bytes replayLocally(const Trace& t) {
  Doc doc(1);
  docs::ydoc::YType* text = nullptr;
  doc.transact([&](docs::ydoc::Transaction& tr) {
    docs::ydoc::YType* para = docs::ydoc::insertElement(doc, tr, doc.root("default"), 0, "paragraph");
    text = docs::ydoc::insertXmlText(doc, tr, *para, 0);
  });
  for (const auto& txn : t.txns) {
    doc.transact([&](docs::ydoc::Transaction& tr) {
      for (const Patch& p : txn) {
        if (p.del > 0) docs::ydoc::deleteText(doc, tr, *text, p.pos, p.del);
        if (!p.insert.empty()) {
          docs::ydoc::TextRun run;
          run.text = p.insert;
          run.inherit = true;
          docs::ydoc::insertText(doc, tr, *text, p.pos, {run});
        }
      }
    });
  }
  return doc.encodeStateAsUpdate();
}

double millis(const std::function<void()>& f, int reps) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / reps;
}

void printTable() {
  std::printf("\n%-28s %-26s %14s %14s\n", "trace", "row", "core/ydoc", "yjs 13.6.33");
  for (const Trace& t : traces()) {
    const size_t applyCount = std::min(t.updates.size(), static_cast<size_t>(t.yjs.value("applyCount", 0)));
    Doc replayed(99);
    const double applyMs = millis(
        [&] {
          for (size_t i = 0; i < applyCount; ++i) replayed.applyUpdate(t.updates[i]);
        },
        1);
    if (applyCount < t.updates.size()) {
      Doc loaded(99);
      loaded.applyUpdate(t.state);
      replayed.applyUpdate(loaded.encodeStateAsUpdate());
    }
    // the replayed document must encode to yjs' bytes
    const Bytes encoded = replayed.encodeStateAsUpdate();
    const double encodeMs = millis([&] { benchmark::DoNotOptimize(replayed.encodeStateAsUpdate()); }, 20);
    const double loadMs = millis(
        [&] {
          Doc d(99);
          d.applyUpdate(t.state);
        },
        20);
    const bool identical = encoded == t.state;
    // heap held by a loaded document (glibc's allocator statistics)
    const size_t heapBefore = mallinfo2().uordblks;
    auto held = std::make_unique<Doc>(99);
    held->applyUpdate(t.state);
    const size_t heapBytes = mallinfo2().uordblks - heapBefore;
    const auto row = [&](const char* what, double ours, const char* key) {
      std::printf("%-28s %-26s %12.2f ms %12.2f ms\n", t.name.c_str(), what, ours, t.yjs.value(key, 0.0));
    };
    const std::string applyRow = "apply " + std::to_string(applyCount) + " edit updates";
    row(applyRow.c_str(), applyMs, "applyUpdatesMs");

    row("encode state (v1)", encodeMs, "encodeMs");
    row("load final state", loadMs, "loadMs");
    if (!t.txns.empty()) {
      Bytes local;
      const double localMs = millis([&] { local = replayLocally(t); }, 1);
      row("local edits replay", localMs, "localReplayMs");
      std::printf("%-28s %-26s %14s\n", t.name.c_str(), "local bytes == yjs state", local == t.state ? "yes" : "NO");
    }
    std::printf("%-28s %-26s %12zu B  %12zu B\n", t.name.c_str(), "state size", encoded.size(),
                static_cast<size_t>(t.yjs.value("stateBytes", 0)));
    std::printf("%-28s %-26s %12zu B  %12zu B\n", t.name.c_str(), "heap of loaded doc", heapBytes,
                static_cast<size_t>(t.yjs.value("heapBytes", 0)));
    std::printf("%-28s %-26s %14s\n", t.name.c_str(), "replay bytes == yjs state", identical ? "yes" : "NO");
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) == 0) {
      rest.push_back(argv[i]);
    } else {
      traces().push_back(loadTrace(a));
    }
  }
  for (const Trace& t : traces()) {
    const Trace* tp = &t;
    benchmark::RegisterBenchmark(("ApplyUpdates/" + t.name).c_str(), [tp](benchmark::State& s) {
      const size_t count = std::min(tp->updates.size(), static_cast<size_t>(tp->yjs.value("applyCount", 0)));
      for (auto _ : s) {
        Doc d(99);
        for (size_t i = 0; i < count; ++i) d.applyUpdate(tp->updates[i]);
      }
      s.counters["updates"] = static_cast<double>(count);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("LoadState/" + t.name).c_str(), [tp](benchmark::State& s) {
      for (auto _ : s) {
        Doc d(99);
        d.applyUpdate(tp->state);
        benchmark::DoNotOptimize(d);
      }
      s.counters["bytes"] = static_cast<double>(tp->state.size());
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("EncodeState/" + t.name).c_str(), [tp](benchmark::State& s) {
      Doc d(99);
      d.applyUpdate(tp->state);
      for (auto _ : s) benchmark::DoNotOptimize(d.encodeStateAsUpdate());
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("MergeStateWithOneEdit/" + t.name).c_str(), [tp](benchmark::State& s) {
      const Bytes& last = tp->updates.back();
      for (auto _ : s) benchmark::DoNotOptimize(docs::ydoc::mergeUpdates({tp->state, last}));
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("StateVectorFromUpdate/" + t.name).c_str(), [tp](benchmark::State& s) {
      for (auto _ : s) benchmark::DoNotOptimize(docs::ydoc::encodeStateVectorFromUpdate(tp->state));
    })->Unit(benchmark::kMillisecond);
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  printTable();
  return 0;
}
