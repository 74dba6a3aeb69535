import ZapperCore

/// The phone's remote control, served at `GET /remote` on the API's address: the channel
/// list with logos, CH±, digits, volume, mute and a live screenshot. The page itself holds
/// nothing secret; every call it makes carries the bearer token, which comes once in the
/// address's fragment (`/remote#token=…`, the QR code the panel shows; a fragment never
/// reaches a server or its logs) and is kept in the phone's local storage, or is typed in.
/// Names from the lineup are put in as text, never as markup.
enum RemotePage {
    /// One channel of the list (`GET /channels`): a logo only when it is http(s).
    struct Channel: Encodable {
        var number: Int
        var name: String
        var logo: String?

        init(_ channel: LineupChannel) {
            number = channel.number
            name = channel.name
            let scheme = channel.logo?.scheme?.lowercased()
            logo = scheme == "http" || scheme == "https" ? channel.logo?.absoluteString : nil
        }
    }

    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Zapper remote</title>
        <style>
        body { margin: 0; font: 16px system-ui, sans-serif; background: #15171c; color: #f2f2f2; }
        header { padding: 12px 16px; background: #23262d; }
        #screen { width: 100%; max-height: 40vh; aspect-ratio: 16 / 9; background: #000; display: block; object-fit: contain; }
        #status { margin: 8px 0 0; color: #a8acb5; }
        .keys { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; padding: 12px 16px; }
        button { font: inherit; padding: 14px 0; border: 0; border-radius: 10px; background: #31353e; color: inherit; }
        button:active { background: #4a505c; }
        #channels { list-style: none; margin: 0; padding: 0 16px 24px; }
        #channels li { display: flex; align-items: center; gap: 12px; padding: 10px 0; border-bottom: 1px solid #2b2f37; }
        #channels img { width: 48px; height: 27px; object-fit: contain; }
        #channels .number { width: 3em; color: #a8acb5; text-align: right; }
        #login[hidden], #remote[hidden] { display: none; }
        #login { padding: 24px 16px; }
        #login input { font: inherit; width: 100%; box-sizing: border-box; padding: 12px; margin: 8px 0; }
        </style></head>
        <body>
        <form id="login" hidden><p>The box's API token (Settings: <code>[api] token</code>), or scan the QR code its panel shows.</p>
        <input id="token" autocomplete="off" placeholder="token"><button type="submit">Connect</button></form>
        <main id="remote" hidden>
        <header><img id="screen" alt="What the TV shows"><p id="status">Connecting…</p></header>
        <div class="keys">
        <button data-key="KEY_CHANNELUP">CH +</button><button data-key="KEY_VOLUMEUP">Vol +</button><button data-key="KEY_MUTE">Mute</button>
        <button data-key="KEY_CHANNELDOWN">CH −</button><button data-key="KEY_VOLUMEDOWN">Vol −</button><button data-key="KEY_LAST">Last</button>
        <button data-key="KEY_1">1</button><button data-key="KEY_2">2</button><button data-key="KEY_3">3</button>
        <button data-key="KEY_4">4</button><button data-key="KEY_5">5</button><button data-key="KEY_6">6</button>
        <button data-key="KEY_7">7</button><button data-key="KEY_8">8</button><button data-key="KEY_9">9</button>
        <button data-key="KEY_ENTER">OK</button><button data-key="KEY_0">0</button><button data-key="KEY_BACK">Back</button>
        </div>
        <ul id="channels"></ul>
        </main>
        <script>
        "use strict";
        const stored = "zapper-remote-token";
        const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
        if (fromLink) { localStorage.setItem(stored, fromLink); history.replaceState(null, "", location.pathname); }
        let token = localStorage.getItem(stored);
        const $ = (id) => document.getElementById(id);
        function call(method, path, body) {
          return fetch(path, { method, body, headers: { Authorization: "Bearer " + token } }).then((reply) => {
            if (reply.status === 401) { localStorage.removeItem(stored); showLogin(); throw new Error("token refused"); }
            return reply;
          });
        }
        function showLogin() { $("remote").hidden = true; $("login").hidden = false; }
        function command(verb, payload) { return call("POST", "/command/" + verb, payload).then(refreshSoon); }
        let shotURL = null;
        function refresh() {
          call("GET", "/status").then((r) => r.ok ? r.json() : null).then((s) => {
            if (s) $("status").textContent = s.channel + " " + (s.channel_name || "") + (s.muted ? " · muted" : " · volume " + s.volume);
          }).catch(() => {});
          call("GET", "/screenshot.png").then((r) => r.ok ? r.blob() : null).then((blob) => {
            if (!blob) return;
            if (shotURL) URL.revokeObjectURL(shotURL);
            shotURL = URL.createObjectURL(blob);
            $("screen").src = shotURL;
          }).catch(() => {});
        }
        function refreshSoon() { setTimeout(refresh, 700); }
        function start() {
          $("login").hidden = true; $("remote").hidden = false;
          call("GET", "/channels").then((r) => r.json()).then((channels) => {
            const list = $("channels");
            list.replaceChildren();
            for (const channel of channels) {
              const item = document.createElement("li");
              item.dataset.number = channel.number;
              const logo = document.createElement("img");
              logo.alt = "";
              logo.addEventListener("error", () => { logo.style.visibility = "hidden"; });
              if (channel.logo) logo.src = channel.logo;
              const number = document.createElement("span");
              number.className = "number";
              number.textContent = channel.number;
              const name = document.createElement("span");
              name.textContent = channel.name;
              item.append(logo, number, name);
              item.addEventListener("click", () => command("tune", String(channel.number)));
              list.append(item);
            }
          }).catch(() => {});
          refresh();
          setInterval(refresh, 3000);
        }
        for (const button of document.querySelectorAll("button[data-key]")) {
          button.addEventListener("click", () => command("key", button.dataset.key));
        }
        $("login").addEventListener("submit", (event) => {
          event.preventDefault();
          token = $("token").value.trim();
          localStorage.setItem(stored, token);
          start();
        });
        if (token) start(); else showLogin();
        </script>
        </body></html>
        """
}
