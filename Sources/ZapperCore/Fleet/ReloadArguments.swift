/// The command line a reload starts zapper with: the same, but for `--channel`, so the new
/// run resumes the channel on screen from the saved state (found by its key, as at any start)
/// instead of going back to the channel the box was first started on.
public enum ReloadArguments {
    public static func forReload(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                out += arguments[(index - 1)...]
                break
            }
            if argument == "--channel" {
                index = min(index + 1, arguments.endIndex)  // and its value
                continue
            }
            if argument.hasPrefix("--channel=") { continue }
            out.append(argument)
        }
        return out
    }
}
