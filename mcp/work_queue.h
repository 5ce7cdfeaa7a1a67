// A fixed set of worker threads and a bounded queue: how the server answers
// several requests at once. Submit blocks while the queue is full, so the
// reader stops taking lines off stdin instead of buffering them.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace testmap::mcp {

class WorkQueue {
 public:
  WorkQueue(size_t workers, size_t capacity);
  // Finishes every submitted job, then joins.
  ~WorkQueue();

  void Submit(std::function<void()> job);
  // Blocks until every submitted job has finished.
  void Drain();

 private:
  void Work();

  size_t capacity_;
  std::mutex mu_;
  std::condition_variable has_job_, has_room_, idle_;
  std::deque<std::function<void()>> jobs_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace testmap::mcp
