/// The items of the panel's Picture tab, top to bottom: how the picture fills the screen, then
/// deinterlacing, then the two lip sync steps. The list drawn and the item chosen both come
/// from `all`, so the two cannot disagree.
public enum PictureTabItem: Sendable, Equatable {
    case mode(PictureMode)
    case deinterlace(DeinterlaceMode)
    /// The picture `LipSync.step` earlier against the sound.
    case lipSyncEarlier
    case lipSyncLater

    public static let all: [PictureTabItem] = PictureMode.allCases.map { .mode($0) }
        + DeinterlaceMode.allCases.map { .deinterlace($0) } + [.lipSyncEarlier, .lipSyncLater]

    /// The item at `index` of the tab, nil past its end.
    public static func at(_ index: Int) -> PictureTabItem? { all.indices.contains(index) ? all[index] : nil }
}
