//! A [`Diagram`] as PNG: its SVG drawing rasterised by resvg (pure Rust;
//! no font needed, the text is paths).

use super::{Diagram, DiagramError};
use resvg::{tiny_skia, usvg};

/// The largest side of a PNG, in pixels: 16384 (a 16384 × 16384 image
/// takes 1 GiB of pixels while it is drawn).
pub const PNG_MAX_SIDE: u32 = 16_384;

impl Diagram {
    /// The diagram as a PNG image whose longer side is `px` pixels (the
    /// other in proportion), drawn from [`Diagram::to_svg`].
    ///
    /// ```
    /// use sgf_grove::diagram::{Diagram, DiagramOptions};
    ///
    /// let doc = sgf_grove::parse(b"(;SZ[9];B[ee])")?;
    /// let game = doc.games().next().unwrap();
    /// let end = game.root().main_line().last().unwrap();
    /// let png = Diagram::at(game, end, &DiagramOptions::new())?.to_png(300)?;
    /// assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`DiagramError::PngSize`] when `px` is 0 or above [`PNG_MAX_SIDE`];
    /// [`DiagramError::Render`] should the rasteriser refuse the drawing.
    pub fn to_png(&self, px: u32) -> Result<Vec<u8>, DiagramError> {
        if px == 0 || px > PNG_MAX_SIDE {
            return Err(DiagramError::PngSize(px));
        }
        let (w, h) = self.svg_size();
        let k = f64::from(px) / w.max(h);
        let (pw, ph) = ((w * k).round().max(1.0), (h * k).round().max(1.0));
        let tree = usvg::Tree::from_str(&self.to_svg(), &usvg::Options::default())
            .map_err(|e| DiagramError::Render(e.to_string()))?;
        let mut pixmap = tiny_skia::Pixmap::new(pw as u32, ph as u32)
            .ok_or_else(|| DiagramError::Render(format!("no {pw}x{ph} pixmap")))?;
        let transform = tiny_skia::Transform::from_scale((pw / w) as f32, (ph / h) as f32);
        resvg::render(&tree, transform, &mut pixmap.as_mut());
        pixmap
            .encode_png()
            .map_err(|e| DiagramError::Render(e.to_string()))
    }
}
