// Function-mode harness for C++, appended to the solution by the runner after
// `#define MOCKLOOP_ENTRY <entrypoint>`. Reads the JSON array of arguments from stdin,
// converts each to the type of the matching parameter of the free function ENTRYPOINT
// (nlohmann::json's `get<T>()`: numbers, strings, bools, std::vector, std::map,
// nlohmann::json itself…), calls it and writes its return value, converted back to JSON,
// to stdout. What the solution prints goes to stderr, so it cannot corrupt the answer.
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace mockloop_function {

template <typename R, typename... A, std::size_t... I>
nlohmann::json call(R (*fn)(A...), const nlohmann::json& args, std::index_sequence<I...>) {
  if constexpr (std::is_void_v<R>) {
    fn(args.at(I).template get<std::decay_t<A>>()...);
    return nullptr;
  } else {
    return nlohmann::json(fn(args.at(I).template get<std::decay_t<A>>()...));
  }
}

template <typename R, typename... A>
nlohmann::json call(R (*fn)(A...), const nlohmann::json& args) {
  if (!args.is_array() || args.size() != sizeof...(A)) {
    throw std::invalid_argument("the function takes " + std::to_string(sizeof...(A)) +
                                " arguments; the test passes " +
                                std::to_string(args.is_array() ? args.size() : 1));
  }
  return call(fn, args, std::index_sequence_for<A...>{});
}

}  // namespace mockloop_function

int main() {
  std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  const nlohmann::json args = input.empty() ? nlohmann::json::array() : nlohmann::json::parse(input);
  std::fflush(stdout);
  const int answer = dup(1);
  dup2(2, 1);  // the solution's own output lands on stderr
  nlohmann::json result;
  try {
    result = mockloop_function::call(&MOCKLOOP_ENTRY, args);
  } catch (const nlohmann::json::exception& error) {
    std::cout.flush();
    std::cerr << "converting an argument or the return value: " << error.what() << "\n";
    return 1;
  }
  std::cout.flush();
  std::fflush(stdout);
  const std::string text = result.dump() + "\n";
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(answer, text.data() + written, text.size() - written);
    if (n <= 0) return 1;
    written += static_cast<std::size_t>(n);
  }
  return 0;
}
