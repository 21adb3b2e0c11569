#include "common/signal_watcher.h"

#include <signal.h>
#include <string.h>

#include <functional>
#include <iostream>
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
  StopRequest stop;
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
        stop.Request(signal);
        std::cerr << "warmup " << command << ": " << name << " received; stopping after the current upsert"
                  << (started_server ? " (again: stop the server now)" : "") << "\n";
      }
      Await();
    });
  }
};

SignalWatcher::SignalWatcher(std::string command, bool started_server) : state_(std::make_unique<State>()) {
  state_->command = std::move(command);
  state_->started_server = started_server;
  state_->Await();
  state_->thread = std::thread([this] { state_->io.run(); });
}

SignalWatcher::~SignalWatcher() {
  state_->io.stop();
  state_->thread.join();
}

StopRequest& SignalWatcher::stop() { return state_->stop; }

int SignalWatcher::received() const { return state_->stop.reason(); }

}  // namespace warmup::cli
