import ZapperCore

/// The playing channel's audio languages and subtitles, as the panel lists them.
extension Player {
    func audioChoices() -> [PanelChoice] { [] }
    func subtitleChoices() -> [PanelChoice] { [PanelChoice(label: "Off", isCurrent: true)] }
    func chooseAudio(_ index: Int) {}
    func chooseSubtitles(_ index: Int) {}
}
