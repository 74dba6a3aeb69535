/// Which of a channel's sound tracks plays: an HLS master's audio renditions and a raw
/// MPEG-TS's audio PIDs alike (`AudioTrackInfo` each, in the order they are listed).
///
/// The rules:
/// 1. The viewer's choice for the channel (what the state keeps: a track's name, or a
///    language) wins: the track of that name, else the tracks in that language.
/// 2. Otherwise the box's languages (`[sound] languages`, in order; ISO 639-1 or -2, so "en",
///    "eng" and "en-GB" are one), the first that the channel has.
/// 3. Otherwise the channel's default (an HLS rendition's `DEFAULT=YES`, else the first).
/// Among tracks of one language, and for the default, an audio description (visual-impaired
/// commentary: the PMT's audio type 3, HLS `public.accessibility.describes-video`) is taken
/// only when `[sound] audio-description = true`, and then before the others.
public struct AudioTrackInfo: Sendable, Equatable {
    public var name: String
    public var language: String?
    public var isDescription: Bool
    public var isDefault: Bool

    public init(name: String, language: String?, isDescription: Bool = false, isDefault: Bool = false) {
        self.name = name
        self.language = language
        self.isDescription = isDescription
        self.isDefault = isDefault
    }

    func matches(language tag: String) -> Bool {
        language.map { LanguageCode.matches($0, tag) } ?? false
    }
}

/// The box's choice for channels nobody chose a track on (`[sound]`).
public struct AudioPreferences: Sendable, Equatable {
    /// Languages in order of preference.
    public var languages: [String]
    /// Audio description first, where a channel has it.
    public var audioDescription: Bool

    public init(languages: [String] = [], audioDescription: Bool = false) {
        self.languages = languages
        self.audioDescription = audioDescription
    }
}

public enum AudioTrackPick {
    /// The index of the track to play, nil when there is none.
    public static func pick(_ tracks: [AudioTrackInfo], chosen: String?, preferences: AudioPreferences) -> Int? {
        guard !tracks.isEmpty else { return nil }
        if let chosen {
            if let named = tracks.firstIndex(where: { $0.name == chosen }) { return named }
            if let index = best(tracks.indices.filter { tracks[$0].matches(language: chosen) }, tracks, preferences) { return index }
        }
        for language in preferences.languages {
            if let index = best(tracks.indices.filter { tracks[$0].matches(language: language) }, tracks, preferences) { return index }
        }
        let defaults = tracks.indices.filter { tracks[$0].isDefault }
        return best(defaults.isEmpty ? Array(tracks.indices) : defaults + tracks.indices.filter { !tracks[$0].isDefault }, tracks, preferences)
    }

    /// Of `candidates` (in order), the first whose audio description is as preferred, else the first.
    private static func best(_ candidates: [Int], _ tracks: [AudioTrackInfo], _ preferences: AudioPreferences) -> Int? {
        candidates.first { tracks[$0].isDescription == preferences.audioDescription } ?? candidates.first
    }

    /// What the state keeps for a chosen track: its language, unless another track shares it
    /// (then its name, which tells them apart).
    public static func remembered(_ index: Int, in tracks: [AudioTrackInfo]) -> String? {
        guard tracks.indices.contains(index) else { return nil }
        let track = tracks[index]
        guard let language = track.language, !language.isEmpty else { return track.name }
        let shared = tracks.indices.contains { $0 != index && tracks[$0].matches(language: language) }
        return shared ? track.name : language
    }

    /// A PMT track's name as the panel lists it: its language in words ("Deutsch"), or its
    /// code, "(audio description)" after it; "Sound N" when it has no language.
    public static func streamName(language: String?, isDescription: Bool, position: Int) -> String {
        let base = language.flatMap { LanguageCode.name($0) ?? ($0.isEmpty || $0 == "und" ? nil : $0) } ?? "Sound \(position + 1)"
        return isDescription ? "\(base) (audio description)" : base
    }
}

/// Subtitles where nobody chose any for a channel (`[subtitles] languages`): the first of the
/// box's languages, in order, that one of the tracks (listed in order) is in; nil: none shows.
public enum SubtitlePreference {
    public static func pick(_ languages: [String?], preferred: [String]) -> Int? {
        for wanted in preferred {
            if let index = languages.firstIndex(where: { $0.map { LanguageCode.matches($0, wanted) } ?? false }) { return index }
        }
        return nil
    }
}
