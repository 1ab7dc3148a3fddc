// perflab entry point; the commands live in cli.cpp.
namespace perflab {
int cli_main(int argc, char** argv);
}

int main(int argc, char** argv) {
  return perflab::cli_main(argc, argv);
}
