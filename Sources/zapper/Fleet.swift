import ArgumentParser
import Foundation
import ZapperCore
import ZapperHLS
import ZapperMQTT
import ZapperPlayer

/// `[mqtt]`: the box on its fleet's broker (README: "MQTT and Home Assistant"), wired to the
/// player's commands, status and events; and the re-execution a `reload` ends with.
enum Fleet {
    /// Connects when the configuration has `[mqtt]` (the connection is made, and made again
    /// with backoff, on the MQTT client's own thread: a broker that is down delays nothing).
    static func start(_ settings: MQTTSettings?, player: Player, lineup: [LineupChannel]) throws -> FleetLink? {
        guard let settings else { return nil }
        if let caFile = settings.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("[mqtt] ca-file \(caFile): cannot be read")
        }
        let link: FleetLink
        do {
            link = try FleetLink(
                settings: settings, channels: lineup.map { ($0.number, $0.name) },
                hooks: .init(send: player.remoteSink, reload: { Player.requestReload() }, upload: { url, bytes in
                    try await HTTPFetcher.shared.put(url, body: bytes, contentType: "image/png")
                }, say: { line in FileHandle.standardError.write(Data("zapper: \(line)\n".utf8)) }))
            player.watchStatus { link.publish($0) }
            player.log.observe { event, line in link.publish(event.name, line) }
            link.start()
        } catch {
            throw ValidationError("[mqtt] \(error)")
        }
        return link
    }

    /// The descriptors open when zapper started (`noteInheritedDescriptors`, first thing in `run`).
    nonisolated(unsafe) static var inherited: Set<Int32> = []

    static func noteInheritedDescriptors() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        // The listing's own directory handle is among them, and closed by now.
        inherited = Set(names.compactMap(Int32.init).filter { fcntl($0, F_GETFD) >= 0 })
    }

    /// After a `reload` ended the loop (state saved, devices handed back): zapper starts anew in
    /// this process (execve, the same PID for systemd) with the same arguments but `--channel`,
    /// reading the lineup and the configuration again and resuming the channel from the state.
    static func startAgain() -> Never {
        // What zapper opened closes (the KMS device, the sound, the sockets); what it was started
        // with goes on: a parent's own descriptors (systemd's, or a supervisor's that watches for
        // the child's exit through one) must not look as if the child had ended.
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            for descriptor in descriptors.compactMap(Int32.init) where descriptor > 2 && !inherited.contains(descriptor) {
                let flags = fcntl(descriptor, F_GETFD)
                if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
            }
        }
        let arguments = ReloadArguments.forReload(CommandLine.arguments)
        FileHandle.standardError.write(Data("zapper: starting again: \(arguments.joined(separator: " "))\n".utf8))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &argv)
        let reason = String(cString: strerror(errno))
        FileHandle.standardError.write(Data("zapper: reload: cannot start again (\(reason)); exiting\n".utf8))
        exit(1)
    }
}
