// warmup: the command-line front end. Parses, calls libwarmup, prints, exits.
#include <iostream>

int main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  std::cout << "warmup\n";
  return 0;
}
