#include "support/run.h"
#include "support/build_paths.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "support/temp_dir.h"

extern char** environ;

namespace adjutant::testing {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the binary with `args`; `env` entries ("K=V") replace the inherited
// environment's ADJUTANT_DB.
Run Adjutant(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  return AdjutantWithInput(args, std::nullopt, env);
}

Run AdjutantWithInput(const std::vector<std::string>& args, const std::optional<std::string>& input,
                      const std::vector<std::string>& env) {
  return AdjutantFrom("", args, input, env);
}

Run AdjutantFrom(const std::string& cwd, const std::vector<std::string>& args, const std::optional<std::string>& input,
                 const std::vector<std::string>& env) {
  adjutant::testing::TempDir io;
  std::string out = io.Sub("out"), err = io.Sub("err"), in = io.Sub("in");
  if (input) std::ofstream(in, std::ios::binary) << *input;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 0, input ? in.c_str() : "/dev/null", O_RDONLY, 0);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  std::vector<std::string> argv_s = {ADJUTANT_BIN};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    if (kv.rfind("ADJUTANT_DB=", 0) != 0 && kv.rfind("ADJUTANT_PASSWORD=", 0) != 0) env_s.push_back(kv);
  }
  env_s.insert(env_s.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& s : env_s) envp.push_back(s.data());
  envp.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, ADJUTANT_BIN, &fa, nullptr, argv.data(), envp.data()) != 0) throw std::runtime_error("spawn failed");
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = Slurp(out);
  r.err = Slurp(err);
  return r;
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}


}  // namespace adjutant::testing
