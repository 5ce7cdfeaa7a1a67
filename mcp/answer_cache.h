// The last few whole answers, so that paging through a long one reads the
// answer once rather than asking the index again for every page.
// Keys name the question and the index generation, so an answer never
// outlives the index state it came from. Bounded by entry count
// (limits.h), least recently used dropped first; thread-safe.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace testmap::mcp {

template <typename T>
class AnswerCache {
 public:
  explicit AnswerCache(size_t capacity) : capacity_(capacity) {}

  std::shared_ptr<const T> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().second;
      }
    }
    return nullptr;
  }

  void Put(const std::string& key, std::shared_ptr<const T> value) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.erase(it);
        break;
      }
    }
    entries_.emplace_front(key, std::move(value));
    while (entries_.size() > capacity_) entries_.pop_back();
  }

 private:
  size_t capacity_;
  std::mutex mu_;
  std::list<std::pair<std::string, std::shared_ptr<const T>>> entries_;
};

}  // namespace testmap::mcp
