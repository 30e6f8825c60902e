//! Diagrams in a real browser: headless Chromium loads the library's SVG
//! (an `<img>` in a page, whose `onload`/`onerror` it reports) and takes a
//! screenshot of it, whose pixels at the stones' centres have the stones'
//! colours and off the lines of an empty point the board's.
//!
//! Skipped, with `SKIPPED name: reason`, when no Chromium binary is found
//! (`chromium`, `chromium-browser`, `google-chrome` on `PATH`, or the one
//! `CHROMIUM` names); fails instead when the `CI` environment variable is
//! set (`.ci/run` installs Debian's `chromium`).

use super::common::{self, TempDir};
use sgf_grove::diagram::{Diagram, DiagramOptions};
use sgf_grove::value::{Color, Point};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The Chromium binary, or `None` (the skip reported).
fn chromium() -> Option<PathBuf> {
    if let Some(named) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(named));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    if std::env::var_os("CI").is_some() {
        panic!("CI is set but no chromium binary is on PATH (apt-get install chromium)");
    }
    common::skipped("no chromium binary on PATH (set CI to make this an error)");
    None
}

/// Runs Chromium headless with `args` in `dir`, killed after a minute.
fn run(chromium: &Path, dir: &Path, args: &[String]) -> Output {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait for chromium").is_some() {
            return child.wait_with_output().expect("chromium's output");
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let out = child.wait_with_output().expect("chromium's output");
            panic!(
                "chromium ran for a minute: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The page: the diagram and a broken SVG as `<img>`s; the title says
/// how each loaded (`loaded WxH` or `error`).
const PAGE: &str = r#"<!DOCTYPE html>
<html><head><title>waiting</title></head><body style="margin:0">
<img id="diagram" src="diagram.svg"><img id="broken" src="broken.svg">
<script>
var states = {}, left = 2;
function report(img, ok) {
  states[img.id] = ok ? "loaded " + img.naturalWidth + "x" + img.naturalHeight : "error";
  if (--left == 0) document.title = JSON.stringify(states);
}
for (const img of document.images) {
  if (img.complete) report(img, img.naturalWidth > 0);
  else { img.onload = () => report(img, true); img.onerror = () => report(img, false); }
}
</script></body></html>
"#;

#[test]
fn chromium_loads_and_draws_a_diagram() {
    let Some(chromium) = chromium() else { return };
    let doc = sgf_grove::parse(b"(;SZ[9]AB[ee];B[cc];W[gg];B[cg];W[gc]TR[ee])").unwrap();
    let game = doc.games().next().unwrap();
    let end = game.root().main_line().last().unwrap();
    let d = Diagram::at(game, end, &DiagramOptions::new().coordinates(true)).unwrap();
    let dir = TempDir::new("diagram-browser");
    dir.write("diagram.svg", d.to_svg());
    dir.write(
        "broken.svg",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect",
    );
    dir.write("page.html", PAGE);

    // Loaded, at its natural size; the broken one (the check's control)
    // fails to.
    let out = run(
        &chromium,
        &dir.0,
        &[
            "--dump-dom".into(),
            format!("file://{}", dir.0.join("page.html").display()),
        ],
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    let (w, h) = d.svg_size();
    // The title is set once both images have reported, in the order they
    // did: each report is looked for on its own.
    let title = dom
        .split_once("<title>")
        .and_then(|(_, rest)| rest.split_once("</title>"))
        .map(|(t, _)| t)
        .unwrap_or_else(|| panic!("no title (the page never heard from both images) in {dom}"));
    let loaded = format!(r#""diagram":"loaded {}x{}""#, w as u32, h as u32);
    for want in [loaded.as_str(), r#""broken":"error""#] {
        assert!(title.contains(want), "{want} not in the title {title}");
    }

    // The screenshot of the SVG itself, the window its size.
    let shot = dir.0.join("shot.png");
    let out = run(
        &chromium,
        &dir.0,
        &[
            format!("--screenshot={}", shot.display()),
            format!("--window-size={},{}", w.ceil() as u32, h.ceil() as u32),
            format!("file://{}", dir.0.join("diagram.svg").display()),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let rgb = |(x, y): (f64, f64)| {
        let p = pixmap.pixel(x as u32, y as u32).unwrap();
        [p.red(), p.green(), p.blue()]
    };
    let near = |got: [u8; 3], want: [u8; 3]| got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 8);
    let off = |p: Point, by: f64| {
        let (x, y) = d.centre(p);
        (x + by, y + by)
    };
    let pt = |x, y| Point { x, y };
    let (black, white, board) = ([0, 0, 0], [255, 255, 255], [0xdc, 0xb3, 0x5c]);
    for (p, colour) in [
        (pt(4, 4), Color::Black),
        (pt(2, 2), Color::Black),
        (pt(6, 6), Color::White),
        (pt(2, 6), Color::Black),
        (pt(6, 2), Color::White),
    ] {
        assert_eq!(d.stone(p), Some(colour));
        let want = if colour == Color::Black { black } else { white };
        // Beside the centre (the triangle, the last move's ring) and at it
        // for the stones without a mark.
        assert!(
            near(rgb(off(p, 5.5)), want),
            "{p:?}: {:?}",
            rgb(off(p, 5.5))
        );
        if p != pt(4, 4) && p != pt(6, 2) {
            assert!(
                near(rgb(off(p, 0.0)), want),
                "{p:?}: {:?}",
                rgb(off(p, 0.0))
            );
        }
    }
    for p in [pt(0, 0), pt(8, 8), pt(3, 5)] {
        assert_eq!(d.stone(p), None);
        assert!(
            near(rgb(off(p, 6.0)), board),
            "{p:?}: {:?}",
            rgb(off(p, 6.0))
        );
    }
}
