// Device printf output appears at CUDA's flush points (the start of a later launch, a
// synchronization), never before: the host's own output printed after the last launch
// precedes that launch's output, everything precedes what the host prints after the
// synchronization, and launches on one stream print in launch order. (The first launch's
// output may come out at the second launch, before or after the host's line, depending
// on whether it had finished.) The program checks its own stdout by running the printing
// part in a child whose stdout is a pipe.
#define CTEST_NAME "printf_order"
#include "ctest.h"

#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

__global__ void say(int launch) { printf("device launch %d thread %d\n", launch, (int)threadIdx.x); }

static std::vector<std::string> lines_of(const std::string &s) {
  std::vector<std::string> v;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    v.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return v;
}

int main() {
  int fds[2];
  if (pipe(fds) != 0) {
    printf("FAIL %s: pipe failed\n", CTEST_NAME);
    return 1;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 1);
    say<<<1, 4>>>(1);
    say<<<1, 4>>>(2);
    printf("host before sync\n");
    fflush(stdout);
    if (cudaDeviceSynchronize() != cudaSuccess) _exit(1);
    printf("host after sync\n");
    fflush(stdout);
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof(buf))) > 0) out.append(buf, (size_t)got);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed (status %#x)", status);

  std::vector<std::string> lines = lines_of(out);
  EXPECT(lines.size() == 10, "%zu lines of output, want 10:\n%s", lines.size(), out.c_str());
  if (lines.size() == 10) {
    EXPECT(lines[9] == "host after sync", "line 9: \"%s\"", lines[9].c_str());
    int host_line = -1, last_launch = 0;
    unsigned seen[2] = {0, 0};
    for (int i = 0; i < 9; i++) {
      if (lines[i] == "host before sync") {
        EXPECT(host_line < 0, "line %d: a second \"host before sync\"", i);
        host_line = i;
        continue;
      }
      int launch = -1, thread = -1;
      if (sscanf(lines[i].c_str(), "device launch %d thread %d", &launch, &thread) != 2 || launch < 1 || launch > 2 ||
          thread < 0 || thread > 3) {
        ctest_fail("line %d: \"%s\"", i, lines[i].c_str());
        continue;
      }
      EXPECT(launch >= last_launch, "line %d is from launch %d after output of launch %d", i, launch, last_launch);
      last_launch = launch;
      if (launch == 2) EXPECT(host_line >= 0, "line %d: launch 2 printed before the host's line", i);
      seen[launch - 1] |= 1u << thread;
    }
    EXPECT(host_line >= 0, "no \"host before sync\" line");
    EXPECT(seen[0] == 15 && seen[1] == 15, "threads seen: %#x %#x", seen[0], seen[1]);
  }
  return ctest_finish();
}
