#include "docs/ydoc/cli.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"
#include "docs/ydoc/prosemirror.hpp"
#include "docs/ydoc/update.hpp"

namespace docs::ydoc {
namespace {

constexpr const char* kUsage =
    "usage: ydoc [--base64] [--fragment NAME] [--client-id N] COMMAND ARGS\n"
    "  json|markdown|html|text FILE...   apply the updates in order and print the document\n"
    "  merge FILE...                     write one merged update\n"
    "  state-vector FILE...              print {\"<client>\": <clock>, ...}\n"
    "  diff UPDATE SV                    write the part of UPDATE missing from state vector SV\n"
    "  from-json PM.json                 write a new document holding ProseMirror JSON\n"
    "FILE may be '-' for stdin; --base64 reads and writes base64 instead of binary.\n";

constexpr const char* kBase64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

Bytes base64Decode(const std::string& text) {
  Bytes out;
  uint32_t acc = 0;
  int bits = 0;
  for (const char c : text) {
    int v = -1;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+' || c == '-') v = 62;
    else if (c == '/' || c == '_') v = 63;
    else if (c == '=' || std::isspace(static_cast<unsigned char>(c))) continue;
    else throw DecodeError("invalid base64 input");
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>(acc >> bits));
    }
  }
  return out;
}

std::string base64Encode(const Bytes& bytes) {
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(kBase64Chars[(v >> s) & 0x3F]);
  }
  if (i < bytes.size()) {
    uint32_t v = uint32_t{bytes[i]} << 16;
    if (i + 1 < bytes.size()) v |= uint32_t{bytes[i + 1]} << 8;
    out.push_back(kBase64Chars[(v >> 18) & 0x3F]);
    out.push_back(kBase64Chars[(v >> 12) & 0x3F]);
    out.push_back(i + 1 < bytes.size() ? kBase64Chars[(v >> 6) & 0x3F] : '=');
    out.push_back('=');
  }
  return out;
}

struct Options {
  bool base64 = false;
  std::string fragment = "default";
  uint64_t clientId = 0;
  std::string command;
  std::vector<std::string> files;
};

class Cli {
 public:
  Cli(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  std::string readText(const std::string& path) {
    if (path == "-") {
      if (stdinUsed_) throw YdocError("stdin ('-') can be read only once");
      stdinUsed_ = true;
      return std::string(std::istreambuf_iterator<char>(in_), {});
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) throw YdocError("cannot read " + path);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }

  Bytes readBytes(const std::string& path, bool base64) {
    const std::string text = readText(path);
    if (base64) return base64Decode(text);
    return Bytes(text.begin(), text.end());
  }

  void writeBytes(const Bytes& bytes, bool base64) {
    if (base64) {
      out_ << base64Encode(bytes) << "\n";
    } else {
      out_.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
  }

  int run(const Options& o) {
    const std::string& cmd = o.command;
    if (cmd == "json" || cmd == "markdown" || cmd == "html" || cmd == "text" || cmd == "state-vector") {
      if (o.files.empty()) throw YdocError(cmd + " needs at least one FILE");
      Doc doc(1);
      for (const auto& f : o.files) doc.applyUpdate(readBytes(f, o.base64));
      if (cmd == "state-vector") {
        Json sv = Json::object();
        for (const auto& [client, clock] : doc.stateVector()) sv[std::to_string(client)] = clock;
        out_ << sv.dump() << "\n";
        return 0;
      }
      const Json pm = toProseMirrorJson(doc, o.fragment);
      if (cmd == "json") out_ << pm.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
      if (cmd == "markdown") out_ << toMarkdown(pm);
      if (cmd == "html") out_ << toHtml(pm) << "\n";
      if (cmd == "text") out_ << toPlainText(pm);
      return 0;
    }
    if (cmd == "merge") {
      if (o.files.empty()) throw YdocError("merge needs at least one FILE");
      std::vector<Bytes> updates;
      for (const auto& f : o.files) updates.push_back(readBytes(f, o.base64));
      std::vector<std::span<const uint8_t>> spans(updates.begin(), updates.end());
      writeBytes(mergeUpdates(spans), o.base64);
      return 0;
    }
    if (cmd == "diff") {
      if (o.files.size() != 2) throw YdocError("diff needs UPDATE and SV");
      const Bytes update = readBytes(o.files[0], o.base64);
      const Bytes sv = readBytes(o.files[1], o.base64);
      writeBytes(diffUpdate(update, sv), o.base64);
      return 0;
    }
    if (cmd == "from-json") {
      if (o.files.size() != 1) throw YdocError("from-json needs one PM.json");
      const Json pm = Json::parse(readText(o.files[0]));
      writeBytes(proseMirrorJsonToUpdate(pm, o.clientId == 0 ? randomClientId() : o.clientId, o.fragment), o.base64);
      return 0;
    }
    throw YdocError("unknown command '" + cmd + "'");
  }

 private:
  std::istream& in_;
  std::ostream& out_;
  bool stdinUsed_ = false;
};

}  // namespace

int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  Options o;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--base64") {
        o.base64 = true;
      } else if (a == "--fragment" && i + 1 < args.size()) {
        o.fragment = args[++i];
      } else if (a == "--client-id" && i + 1 < args.size()) {
        o.clientId = std::stoull(args[++i]);
      } else if (a == "-h" || a == "--help") {
        out << kUsage;
        return 0;
      } else if (o.command.empty()) {
        o.command = a;
      } else {
        o.files.push_back(a);
      }
    }
    if (o.command.empty()) {
      err << kUsage;
      return 2;
    }
    Cli cli(in, out);
    return cli.run(o);
  } catch (const std::exception& e) {
    err << "ydoc: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace docs::ydoc
