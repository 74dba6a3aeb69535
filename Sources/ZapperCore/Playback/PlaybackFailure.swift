/// Why a channel does not play, typed where it happened (HTTP, HLS, demux,
/// decode, the player's own watch) and carried so up to the tuner and the
/// card. `detail` is the technical reason for the log (URL, status, line,
/// library message); the words on the card come from `kind` alone.
public struct PlaybackFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The server answered with this status (not 200/206, not a redirect followed).
        case http(status: Int)
        /// No connection: refused, reset, no route, the name not found.
        case unreachable
        /// No answer in time, or a body too slow in coming.
        case timeout
        /// A live playlist that stopped moving.
        case stalled
        /// The picture on screen stopped: no new one for `TunerSettings.stallAfter`.
        case frozen
        /// Pictures keep coming but show the same thing (`PictureWatch`).
        case frozenPicture
        /// Pictures keep coming but are black (`PictureWatch`).
        case blackPicture
        /// A body shorter than it said, or a segment holding much less than its playlist says.
        case truncated
        /// More bytes than the limit for that resource.
        case tooLarge
        /// Not what the format says: a playlist, key or section that does not parse or is out of bounds.
        case invalid
        /// Well formed, but not something this player can play, and which (a web page, a DRM key method).
        case unsupported(UnsupportedForm)
        /// The demuxer or a decoder gave up on the bytes.
        case decode
        /// No picture came in time.
        case noPicture
        /// A radio channel's sound stopped (it has no picture to watch).
        case noSound
        /// A network tuner (an HDHomeRun) answered that all its tuners (this many) are streaming.
        case tunersBusy(Int)
        /// Not fetched by policy: a scheme other than http(s), a local address, an https→http redirect.
        case refused
        /// The https server's certificate was not accepted, and why.
        case certificate(CertificateProblem)
        /// The number is not in the lineup.
        case noSuchChannel(Int)
        /// Anything else (the detail says what).
        case other

        /// What has a playing channel tuned again (`TunerInput.failed`): its picture stopped, froze or went black.
        public var retunesWhilePlaying: Bool { self == .frozen || self == .frozenPicture || self == .blackPicture || self == .noSound }
    }

    public var kind: Kind
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Any error, as a failure: typed ones keep their kind, others are `.other`.
    public init(_ error: any Error) {
        switch error {
        case let failure as PlaybackFailure: self = failure
        case let convertible as any PlaybackFailureConvertible: self = convertible.playbackFailure
        default: self.init(.other, "\(error)")
        }
    }

    public var description: String { detail }

    /// The same failure, its detail said where it happened ("segment 12: …").
    public func at(_ place: String) -> PlaybackFailure {
        PlaybackFailure(kind, "\(place): \(detail)")
    }

    /// What the viewer reads on the error card.
    public var words: String {
        switch kind {
        case .http(404), .http(410): "This channel is not on the air"
        case .http(401), .http(403): "This channel is not available here"
        case .http(let status) where (500...599).contains(status): "The channel's server has a problem"
        case .http: "The channel cannot be played"
        case .timeout: "The channel is not responding"
        case .unreachable: "The channel cannot be reached"
        case .stalled, .frozen: "The channel stopped sending"
        case .frozenPicture: "The channel's picture froze"
        case .blackPicture: "The channel's picture is black"
        case .noPicture: "No picture from the channel"
        case .noSound: "No sound from the channel"
        case .tunersBusy(let count): "The tuner is busy: all \(count) of its tuners are in use"
        case .refused: "The channel's address is not allowed"
        case .certificate(let problem): problem.words
        case .noSuchChannel(let number): "No channel \(number)"
        case .unsupported(let form): form.words
        case .truncated, .tooLarge, .invalid, .decode, .other: "The channel cannot be played"
        }
    }

    /// The kind as the event log names it (`kind` of `load-failed`): `http-404`, `timeout`, ….
    public var name: String {
        switch kind {
        case .http(let status): "http-\(status)"
        case .unreachable: "unreachable"
        case .timeout: "timeout"
        case .stalled: "stalled"
        case .frozen: "frozen"
        case .frozenPicture: "frozen-picture"
        case .blackPicture: "black-picture"
        case .truncated: "truncated"
        case .tooLarge: "too-large"
        case .invalid: "invalid"
        case .unsupported: "unsupported"
        case .decode: "decode"
        case .noPicture: "no-picture"
        case .noSound: "no-sound"
        case .tunersBusy: "tuners-busy"
        case .refused: "refused"
        case .certificate(let problem): "certificate-\(problem.rawValue)"
        case .noSuchChannel: "no-such-channel"
        case .other: "other"
        }
    }
}

/// What a channel's address gave that this player does not play: each with the words a
/// viewer (or whoever keeps the lineup) can act on.
public enum UnsupportedForm: Sendable, Hashable {
    /// A web page (`text/html`): a portal's link, not its stream.
    case webPage
    /// A DASH manifest (`.mpd`).
    case dash
    /// An answer with no body.
    case empty
    /// Bytes that are neither an HLS playlist nor MPEG-TS.
    case notAStream
    /// Segments, keys or sections encrypted with a method (a DRM system) this player cannot decrypt.
    case encryption

    public var words: String {
        switch self {
        case .webPage: "The channel's address is a web page, not a stream"
        case .dash: "The channel is in a format this box does not play (DASH)"
        case .empty: "The channel sent nothing"
        case .notAStream: "The channel's address does not give a stream"
        case .encryption: "The channel is locked with a system this box cannot unlock"
        }
    }
}

/// An error type of a backend that knows which failure it is.
public protocol PlaybackFailureConvertible: Error {
    var playbackFailure: PlaybackFailure { get }
}

/// Why an https server's certificate was refused: each says what a person can do about it.
public enum CertificateProblem: String, Sendable, Hashable, CaseIterable {
    /// Not signed by an authority the box trusts (self-signed, a private CA not in `ca-file`).
    case untrusted
    /// Past its end date.
    case expired
    /// Before its start date: the server's certificate is new, or the box's clock is wrong.
    case notYetValid = "not-yet-valid"
    /// Made out for another host name than the one in the address.
    case wrongHost = "wrong-host"

    /// The error card's words.
    public var words: String {
        switch self {
        case .untrusted: "The channel's server is not trusted (its certificate)"
        case .expired: "The channel's server certificate has expired"
        case .notYetValid: "The channel's server certificate is not valid yet (check the clock)"
        case .wrongHost: "The channel's server certificate is for another name"
        }
    }
}
