import Foundation
import ZapperFuzzTargets

// libFuzzer's entry point (the product is built with `--sanitize=fuzzer`, which
// links libFuzzer's own main). The target is named by $ZAPPER_FUZZ_TARGET.
let selected: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["ZAPPER_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("zapper-fuzz: set ZAPPER_FUZZ_TARGET to one of \(names)\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected.run(bytes)
    return 0
}
