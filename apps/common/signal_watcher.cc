#include "common/signal_watcher.h"

#include <signal.h>
#include <string.h>

#include <functional>
#include <iostream>
#include <mutex>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
// clang-format off
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
// clang-format on

namespace warmup::cli {

struct SignalWatcher::State {
  std::string command;
  bool started_server = false;
  std::string stopping;
  StopRequest stop;
  std::mutex mu;                  // guards on_stop against the first signal
  std::function<void()> on_stop;  // empty until OnStop, and after it ran
  boost::asio::io_context io;
  boost::asio::signal_set signals{io, SIGINT, SIGTERM};
  std::thread thread;

  void Await() {
    signals.async_wait([this](const boost::system::error_code& ec, int signal) {
      if (ec) return;
      const std::string name = "SIG" + std::string(::sigabbrev_np(signal));
      if (stop.requested()) {
        if (started_server) {
          std::cerr << "warmup " << command << ": " << name << " received again; stopping the server now\n";
          stop.StopNow();
        }
      } else {
        std::cerr << "warmup " << command << ": " << name << " received; " << stopping
                  << (started_server ? " (again: stop the server now)" : "") << "\n";
        std::function<void()> call;
        {
          const std::lock_guard<std::mutex> lock(mu);
          stop.Request(signal);
          call.swap(on_stop);
        }
        if (call) call();
      }
      Await();
    });
  }
};

SignalWatcher::SignalWatcher(std::string command, bool started_server, std::string stopping)
    : state_(std::make_unique<State>()) {
  state_->command = std::move(command);
  state_->started_server = started_server;
  state_->stopping = std::move(stopping);
  state_->Await();
  state_->thread = std::thread([this] { state_->io.run(); });
}

SignalWatcher::~SignalWatcher() {
  state_->io.stop();
  state_->thread.join();
}

StopRequest& SignalWatcher::stop() { return state_->stop; }

void SignalWatcher::OnStop(std::function<void()> on_stop) {
  {
    const std::lock_guard<std::mutex> lock(state_->mu);
    if (!state_->stop.requested()) {
      state_->on_stop = std::move(on_stop);
      return;
    }
  }
  on_stop();
}

int SignalWatcher::received() const { return state_->stop.reason(); }

}  // namespace warmup::cli
