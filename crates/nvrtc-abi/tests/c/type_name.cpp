// nvrtcGetTypeName<T>() from our nvrtc.h, as the CUDA 8 post uses it to build name
// expressions from host template code. Prints PASS.
#define NVRTC_GET_TYPE_NAME 1
#include "nvrtc.h"
#include <cstdio>
#include <string>

namespace app { struct Widget {}; template <class T, int N> struct Box {}; }

template <typename T> static bool check(const char *expect) {
  std::string name;
  if (nvrtcGetTypeName<T>(&name) != NVRTC_SUCCESS || name != expect) {
    std::fprintf(stderr, "got '%s', expected '%s'\n", name.c_str(), expect);
    return false;
  }
  return true;
}

int main() {
  bool ok = check<int>("int") && check<float>("float") && check<app::Widget>("app::Widget") &&
            check<app::Box<unsigned long, 3> >("app::Box<unsigned long, 3>") && check<const int>("int const");
  if (!ok) return 1;
  std::string kernel = "kernel<";
  std::string t;
  nvrtcGetTypeName<double>(&t);
  kernel += t + ">";
  std::printf("PASS %s\n", kernel.c_str());
  return 0;
}
