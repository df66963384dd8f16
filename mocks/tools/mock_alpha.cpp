// mock-alpha: the offline "alpha" upstream as a process (see mocks/src/cli/run_cli.hpp).
#include "cli/run_cli.hpp"

int main(int argc, char** argv) {
    return gateway::mocks::run_cli(gateway::mocks::upstream::alpha, argc, argv);
}
