// warmup: the command-line front end. Parses, calls libwarmup, prints, exits.
#include <iostream>
#include <string>

#include "warmup/version.h"

namespace {

constexpr const char* kUsage = R"(usage: warmup <command> [options]

Measures how long publishing an evitaDB catalog takes.

commands:
  version    print the version and the evitaDB protocol subset this build speaks
  help       print this text
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "help";
  if (command == "version" || command == "--version") {
    std::cout << "warmup " << warmup::Version() << "\n"
              << "evitaDB gRPC protocol: " << warmup::ProtocolDescription() << "\n";
    return 0;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "warmup: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
