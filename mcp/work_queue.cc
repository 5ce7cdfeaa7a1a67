#include "mcp/work_queue.h"

namespace testmap::mcp {

WorkQueue::WorkQueue(size_t workers, size_t capacity) : capacity_(capacity) {
  for (size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { Work(); });
}

WorkQueue::~WorkQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  has_job_.notify_all();
  for (auto& t : threads_) t.join();
}

void WorkQueue::Submit(std::function<void()> job) {
  std::unique_lock<std::mutex> lock(mu_);
  has_room_.wait(lock, [&] { return jobs_.size() + running_ < capacity_; });
  jobs_.push_back(std::move(job));
  has_job_.notify_one();
}

void WorkQueue::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [&] { return jobs_.empty() && running_ == 0; });
}

void WorkQueue::Work() {
  while (true) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      has_job_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
      ++running_;
    }
    job();  // jobs catch their own exceptions (server.cc)
    {
      std::lock_guard<std::mutex> lock(mu_);
      --running_;
      if (jobs_.empty() && running_ == 0) idle_.notify_all();
    }
    has_room_.notify_one();
  }
}

}  // namespace testmap::mcp
