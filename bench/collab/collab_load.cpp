// bench/collab: a load generator for Hocuspocus-protocol servers (docsd or
// @hocuspocus/server), single-threaded on epoll so it stays cheap next to the server.
//
//   collab_load --port P --rooms-file F --editors N [--rate R] [--seconds S] [--token T]
//               [--warm-updates K] [--path /collaboration]
//
// Every room in F gets N editors. Each editor authenticates, syncs, then sends one-char
// text insertions: at R updates/s each (open loop) or, with --rate 0, keeping --window W
// updates unacknowledged per editor (closed loop: the sustained rate; W > 1 is a fast
// typist whose client does not wait for acknowledgements, as the provider does not). Fan-out latency is
// measured at every other editor of the room from the (client, clock) of each update.
// Prints one JSON object.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "test_support.hpp"
#include "ws_client.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void putVarUint(std::string& out, std::uint64_t value) {
  while (value > 0x7f) {
    out += static_cast<char>(0x80 | (value & 0x7f));
    value >>= 7;
  }
  out += static_cast<char>(value);
}
void putVarString(std::string& out, const std::string& text) {
  putVarUint(out, text.size());
  out += text;
}
bool getVarUint(const std::string& in, std::size_t& pos, std::uint64_t& value) {
  value = 0;
  for (int shift = 0; pos < in.size() && shift < 64; shift += 7) {
    auto byte = static_cast<std::uint8_t>(in[pos++]);
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

// One character appended by `client` at `clock` to the root "bench" (origin: its own
// previous character): a valid Yjs v1 update without a document to keep.
std::string insertion(std::uint64_t client, std::uint64_t clock) {
  std::string update;
  putVarUint(update, 1);  // clients
  putVarUint(update, 1);  // structs
  putVarUint(update, client);
  putVarUint(update, clock);
  if (clock == 0) {
    update += static_cast<char>(0x04);  // string content, no origins: parent follows
    putVarUint(update, 1);
    putVarString(update, "bench");
  } else {
    update += static_cast<char>(0x84);  // string content with a left origin
    putVarUint(update, client);
    putVarUint(update, clock - 1);
  }
  putVarString(update, "x");
  putVarUint(update, 0);  // empty delete set
  return update;
}

struct Editor {
  int fd = -1;
  std::string room;
  std::uint64_t client = 0;
  std::uint64_t clock = 0;
  std::string in;   // bytes read, not yet parsed
  std::string out;  // bytes not yet written
  bool upgraded = false;
  bool synced = false;
  int inFlight = 0;
  Clock::time_point nextSend{};
};

struct Sample {
  Clock::time_point sent;
  std::size_t roomIndex;
};

std::string frameHeader(const std::string& room, std::uint64_t type) {
  std::string frame;
  putVarString(frame, room);
  putVarUint(frame, type);
  return frame;
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0, editorsPerRoom = 2, seconds = 10, warmUpdates = 0, window = 1;
  double rate = 10;
  std::string roomsFile, token = "bench", path = "/collaboration";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string key = argv[i], value = argv[i + 1];
    if (key == "--port") port = std::stoi(value);
    else if (key == "--rooms-file") roomsFile = value;
    else if (key == "--editors") editorsPerRoom = std::stoi(value);
    else if (key == "--rate") rate = std::stod(value);
    else if (key == "--seconds") seconds = std::stoi(value);
    else if (key == "--token") token = value;
    else if (key == "--path") path = value;
    else if (key == "--warm-updates") warmUpdates = std::stoi(value);
    else if (key == "--window") window = std::max(1, std::stoi(value));
  }
  std::vector<std::string> rooms;
  std::ifstream list(roomsFile);
  for (std::string line; std::getline(list, line);)
    if (!line.empty()) rooms.push_back(line);
  if (!port || rooms.empty()) {
    std::fprintf(stderr, "usage: collab_load --port P --rooms-file F --editors N [--rate R] [--seconds S]\n");
    return 2;
  }
  rlimit limit{65536, 65536};
  setrlimit(RLIMIT_NOFILE, &limit);

  std::mt19937_64 random(std::random_device{}());
  std::vector<Editor> editors;
  int epoll = epoll_create1(0);
  for (std::size_t r = 0; r < rooms.size(); ++r) {
    for (int e = 0; e < editorsPerRoom; ++e) {
      Editor editor;
      editor.room = rooms[r];
      editor.client = (random() & 0x3fffffff) + 1;
      editor.fd = docs::test::connectTo(port);
      if (editor.fd < 0) {
        std::fprintf(stderr, "connect failed\n");
        return 1;
      }
      int one = 1;
      setsockopt(editor.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      fcntl(editor.fd, F_SETFL, fcntl(editor.fd, F_GETFL) | O_NONBLOCK);
      editor.out = "GET " + path +
                   " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
      editors.push_back(std::move(editor));
    }
  }
  for (std::size_t i = 0; i < editors.size(); ++i) {
    epoll_event event{};
    event.events = EPOLLIN | EPOLLOUT | EPOLLET;
    event.data.u64 = i;
    epoll_ctl(epoll, EPOLL_CTL_ADD, editors[i].fd, &event);
  }
  std::map<std::string, std::size_t> roomIndex;
  for (std::size_t r = 0; r < rooms.size(); ++r) roomIndex[rooms[r]] = r;

  std::unordered_map<std::uint64_t, Sample> pending;  // (client << 20 | clock) -> send time
  std::vector<double> latenciesMs;
  std::uint64_t sent = 0, acked = 0, received = 0, syncedCount = 0;
  bool measuring = false;
  std::uint64_t ackedAtStart = 0;
  Clock::time_point measureStart{}, measureEnd{};
  auto key = [](std::uint64_t client, std::uint64_t clock) { return (client << 24) ^ clock; };

  auto flush = [&](Editor& editor) {
    while (!editor.out.empty()) {
      ssize_t n = ::send(editor.fd, editor.out.data(), editor.out.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      editor.out.erase(0, static_cast<std::size_t>(n));
    }
  };
  auto sendUpdate = [&](Editor& editor) {
    std::string frame = frameHeader(editor.room, 0);
    putVarUint(frame, 2);
    std::string update = insertion(editor.client, editor.clock);
    putVarUint(frame, update.size());
    frame += update;
    if (measuring) pending[key(editor.client, editor.clock)] = {Clock::now(), roomIndex[editor.room]};
    editor.clock += 1;
    editor.inFlight += 1;
    sent += measuring ? 1 : 0;
    editor.out += docs::test::maskedFrame(2, frame);
    flush(editor);
  };
  auto onFrame = [&](Editor& editor, const std::string& payload) {
    std::size_t pos = 0;
    std::uint64_t length = 0, type = 0;
    if (!getVarUint(payload, pos, length) || pos + length > payload.size()) return;
    pos += length;
    if (!getVarUint(payload, pos, type)) return;
    if (type == 8) {  // SyncStatus
      editor.inFlight = std::max(0, editor.inFlight - 1);
      if (measuring) ++acked;
      return;
    }
    if (type != 0) return;
    std::uint64_t step = 0, size = 0, clients = 0, structs = 0, client = 0, clock = 0;
    if (!getVarUint(payload, pos, step)) return;
    if (step == 1 && !editor.synced) {
      editor.synced = true;
      ++syncedCount;
      return;
    }
    if (step != 2 || !getVarUint(payload, pos, size) || !getVarUint(payload, pos, clients) ||
        !getVarUint(payload, pos, structs) || !getVarUint(payload, pos, client) || !getVarUint(payload, pos, clock))
      return;
    if (!measuring) return;
    ++received;
    if (client == editor.client) return;  // its own echo
    auto found = pending.find(key(client, clock));
    if (found != pending.end())
      latenciesMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - found->second.sent).count());
  };
  auto readFrames = [&](Editor& editor) {
    char buffer[65536];
    for (;;) {
      ssize_t n = ::recv(editor.fd, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      editor.in.append(buffer, static_cast<std::size_t>(n));
    }
    if (!editor.upgraded) {
      auto end = editor.in.find("\r\n\r\n");
      if (end == std::string::npos) return;
      editor.upgraded = editor.in.rfind("HTTP/1.1 101", 0) == 0;
      editor.in.erase(0, end + 4);
      if (!editor.upgraded) return;
      std::string auth = frameHeader(editor.room, 2);
      putVarUint(auth, 0);
      putVarString(auth, token);
      std::string step1 = frameHeader(editor.room, 0);
      putVarUint(step1, 0);
      putVarUint(step1, 1);
      step1 += '\0';  // empty state vector
      editor.out += docs::test::maskedFrame(2, auth) + docs::test::maskedFrame(2, step1);
      flush(editor);
    }
    // Server frames are unmasked: opcode byte, length, payload.
    while (editor.in.size() >= 2) {
      auto b1 = static_cast<std::uint8_t>(editor.in[1]);
      std::size_t header = 2;
      std::uint64_t length = b1 & 0x7f;
      if (length == 126) {
        if (editor.in.size() < 4) return;
        length = (static_cast<std::uint8_t>(editor.in[2]) << 8) | static_cast<std::uint8_t>(editor.in[3]);
        header = 4;
      } else if (length == 127) {
        if (editor.in.size() < 10) return;
        length = 0;
        for (int k = 0; k < 8; ++k) length = (length << 8) | static_cast<std::uint8_t>(editor.in[2 + k]);
        header = 10;
      }
      if (editor.in.size() < header + length) return;
      auto opcode = static_cast<std::uint8_t>(editor.in[0]) & 0x0f;
      if (opcode == 2) onFrame(editor, editor.in.substr(header, length));
      if (opcode == 9) {  // a ping (collab.ping_interval_ms): answered, as browsers do
        editor.out += docs::test::maskedFrame(10, editor.in.substr(header, length));
        flush(editor);
      }
      editor.in.erase(0, header + length);
    }
  };

  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  auto deadline = Clock::now() + std::chrono::seconds(60);
  epoll_event events[512];
  // Phase 1: everyone connected and synced, then a few warm-up updates per editor.
  while (syncedCount < editors.size() && Clock::now() < deadline) {
    int n = epoll_wait(epoll, events, 512, 100);
    for (int i = 0; i < n; ++i) {
      auto& editor = editors[events[i].data.u64];
      if (events[i].events & EPOLLOUT) flush(editor);
      if (events[i].events & EPOLLIN) readFrames(editor);
    }
  }
  if (syncedCount < editors.size()) {
    std::printf("{\"error\": \"only %llu of %zu editors synced\"}\n", static_cast<unsigned long long>(syncedCount),
                editors.size());
    return 1;
  }
  for (int k = 0; k < warmUpdates; ++k)
    for (auto& editor : editors) sendUpdate(editor);
  auto warmDeadline = Clock::now() + std::chrono::seconds(30);
  auto allAcked = [&] {
    return std::all_of(editors.begin(), editors.end(), [](const Editor& e) { return e.inFlight == 0; });
  };
  while (!allAcked() && Clock::now() < warmDeadline) {
    int n = epoll_wait(epoll, events, 512, 100);
    for (int i = 0; i < n; ++i) {
      auto& editor = editors[events[i].data.u64];
      if (events[i].events & EPOLLOUT) flush(editor);
      if (events[i].events & EPOLLIN) readFrames(editor);
    }
  }

  // Phase 2: measured load.
  measuring = true;
  measureStart = Clock::now();
  ackedAtStart = acked;
  auto stopAt = measureStart + std::chrono::seconds(seconds);
  auto interval = rate > 0 ? std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / rate))
                           : Clock::duration::zero();
  for (auto& editor : editors)
    editor.nextSend = measureStart + std::chrono::duration_cast<Clock::duration>(interval * (random() % 1000) / 1000.0);
  while (Clock::now() < stopAt) {
    auto now = Clock::now();
    for (auto& editor : editors) {
      if (rate > 0) {
        if (now >= editor.nextSend) {
          sendUpdate(editor);
          editor.nextSend += interval;
        }
      } else {
        while (editor.inFlight < window) sendUpdate(editor);
      }
    }
    int n = epoll_wait(epoll, events, 512, 1);
    for (int i = 0; i < n; ++i) {
      auto& editor = editors[events[i].data.u64];
      if (events[i].events & EPOLLOUT) flush(editor);
      if (events[i].events & EPOLLIN) readFrames(editor);
    }
  }
  measureEnd = Clock::now();
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  auto secondsOf = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  double cpu =
      secondsOf(after.ru_utime) - secondsOf(before.ru_utime) + secondsOf(after.ru_stime) - secondsOf(before.ru_stime);
  double elapsed = std::chrono::duration<double>(measureEnd - measureStart).count();
  std::sort(latenciesMs.begin(), latenciesMs.end());
  auto percentile = [&](double p) {
    if (latenciesMs.empty()) return -1.0;
    return latenciesMs[std::min(latenciesMs.size() - 1,
                                static_cast<std::size_t>(p * static_cast<double>(latenciesMs.size())))];
  };
  std::printf(
      "{\"rooms\": %zu, \"editors_per_room\": %d, \"rate_per_editor\": %.1f, \"seconds\": %.2f, "
      "\"window\": %d, \"sent\": %llu, \"acked\": %llu, \"acked_per_s\": %.1f, \"fanout_received\": %llu, "
      "\"fanout_per_s\": %.1f, \"latency_samples\": %zu, \"p50_ms\": %.3f, \"p99_ms\": %.3f, "
      "\"load_tool_cpu_s\": %.2f}\n",
      rooms.size(), editorsPerRoom, rate, elapsed, window, static_cast<unsigned long long>(sent),
      static_cast<unsigned long long>(acked - ackedAtStart), static_cast<double>(acked - ackedAtStart) / elapsed,
      static_cast<unsigned long long>(received), static_cast<double>(received) / elapsed, latenciesMs.size(),
      percentile(0.5), percentile(0.99), cpu);
  return 0;
}
