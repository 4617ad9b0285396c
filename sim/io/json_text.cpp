#include "sim/io/json_text.h"

#include <nlohmann/json.hpp>

#include <vector>

#include "sim/core/error.h"

namespace plab::sim {
namespace {

using Json = nlohmann::json;

// Line and column (both from 1) of a byte offset.
std::string line_and_column(std::string_view s, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < s.size(); ++i) {
        if (s[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

// nlohmann's reason without its "[json.exception.parse_error.101] parse error at line 1,
// column 5: " prefix: the message gives the position itself.
std::string reason(const std::string& what) {
    std::string r = what;
    if (r.rfind("[json.exception.", 0) == 0) {
        const auto close = r.find("] ");
        if (close != std::string::npos) r.erase(0, close + 2);
    }
    if (r.rfind("parse error", 0) == 0) {
        const auto colon = r.find(": ");
        if (colon != std::string::npos) r.erase(0, colon + 2);
    }
    return r;
}

// The DOM builder of nlohmann::json::parse, plus the key path of the value being read and the
// position of the first error (SAX events carry both; the library's exceptions do not).
class LocatingSax {
  public:
    explicit LocatingSax(Json& root) : dom_(root, false) {}

    bool null() { return scalar(dom_.null()); }
    bool boolean(bool v) { return scalar(dom_.boolean(v)); }
    bool number_integer(Json::number_integer_t v) { return scalar(dom_.number_integer(v)); }
    bool number_unsigned(Json::number_unsigned_t v) { return scalar(dom_.number_unsigned(v)); }
    bool number_float(Json::number_float_t v, const std::string& s) {
        return scalar(dom_.number_float(v, s));
    }
    bool string(std::string& v) { return scalar(dom_.string(v)); }
    bool binary(Json::binary_t& v) { return scalar(dom_.binary(v)); }
    bool start_object(std::size_t n) { return enter(false) && dom_.start_object(n); }
    bool key(std::string& k) {
        frames_.back().key = k;
        return dom_.key(k);
    }
    bool end_object() { return leave() && dom_.end_object(); }
    bool start_array(std::size_t n) { return enter(true) && dom_.start_array(n); }
    bool end_array() { return leave() && dom_.end_array(); }

    template <class Exception>
    bool parse_error(std::size_t position, const std::string&, const Exception& e) {
        failed_ = true;
        position_ = position;
        reason_ = reason(e.what());
        return false;
    }

    bool failed() const { return failed_; }
    bool too_deep() const { return too_deep_; }
    std::size_t position() const { return position_; }
    const std::string& why() const { return reason_; }
    // Where the value being read sits: "blocks[1].spacing" ("" at the top).
    std::string path() const {
        std::string p;
        for (const Frame& f : frames_) {
            if (f.array) {
                p += "[" + std::to_string(f.index) + "]";
            } else if (!f.key.empty()) {
                p += (p.empty() ? "" : ".") + f.key;
            }
        }
        return p;
    }

  private:
    struct Frame {
        bool array = false;
        std::size_t index = 0;  // in an array: the element being read
        std::string key;        // in an object: the key being read
    };

    // Moves to the next element once a value of an array is complete.
    bool scalar(bool ok) {
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
        return ok;
    }
    bool enter(bool array) {
        if (frames_.size() >= kMaxJsonDepth) {
            too_deep_ = failed_ = true;
            reason_ =
                "objects and arrays nest deeper than " + std::to_string(kMaxJsonDepth) + " levels";
            return false;
        }
        frames_.push_back({array, 0, {}});
        return true;
    }
    bool leave() {
        frames_.pop_back();
        return scalar(true);
    }

    nlohmann::detail::json_sax_dom_parser<Json> dom_;
    std::vector<Frame> frames_;
    bool failed_ = false, too_deep_ = false;
    std::size_t position_ = 0;
    std::string reason_;
};

}  // namespace

Json parse_json(std::string_view text, const std::string& source) {
    Json root;
    LocatingSax sax(root);
    const bool ok = Json::sax_parse(text.begin(), text.end(), &sax);
    if (ok && !sax.failed()) return root;
    const std::string key = sax.path().empty() ? "" : sax.path() + ": ";
    if (sax.too_deep()) throw Error(source + ": " + key + "invalid JSON: " + sax.why());
    // The position is one past the offending character.
    const std::size_t at = sax.position() > 0 ? sax.position() - 1 : 0;
    throw Error(source + ":" + line_and_column(text, at) + ": " + key + "invalid JSON at byte " +
                std::to_string(at) + ": " + sax.why());
}

}  // namespace plab::sim
