//! Sharing a table with a classmate: its full address, and a QR code of it drawn on the
//! server as SVG, which a tablet's camera opens.

use super::table_href;
use qrcode::render::svg;
use qrcode::QrCode;

/// The full address of the table `id` on `host` (the host the page was asked from).
pub(super) fn address(host: &str, id: &str) -> String {
    format!("http://{host}{}", table_href(id))
}

/// A QR code of `text` as inline SVG (no XML declaration), labelled `label` for screen
/// readers; empty if the text is too long for a QR code.
pub(super) fn qr_svg(text: &str, label: &str) -> String {
    let Ok(code) = QrCode::new(text.as_bytes()) else {
        return String::new();
    };
    let drawn = code
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    let svg = match drawn.find("<svg") {
        Some(start) => &drawn[start..],
        None => return String::new(),
    };
    format!(
        "<svg role=\"img\" aria-label=\"{}\" {}",
        crate::web::kit::escape(label),
        &svg["<svg ".len()..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_address_as_a_qr_code() {
        assert_eq!(
            address("192.168.1.5:8080", "k3m9qa"),
            "http://192.168.1.5:8080/play/k3m9qa"
        );
        let svg = qr_svg(&address("192.168.1.5:8080", "k3m9qa"), "a <code>");
        assert!(svg.starts_with("<svg role=\"img\" aria-label=\"a &lt;code&gt;\" xmlns="));
        assert!(svg.ends_with("</svg>") && svg.contains("<path"));
    }
}
