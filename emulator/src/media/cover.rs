//! PNG covers: two painted styles (landscape, rings) from a seed.

use super::math;
use std::f32::consts::PI;
use std::f32::consts::TAU;

use super::render::smooth01;
use super::rng::Rng;
pub(super) const SIZE: usize = 512;

pub(super) type Rgb = [f32; 3];

/// HSV (hue in degrees) to linear-ish RGB in [0, 1].
pub(super) fn hsv(h: f32, s: f32, v: f32) -> Rgb {
    let h = h.rem_euclid(360.0) / 60.0;
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    [r + m, g + m, b + m]
}

pub(super) fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

pub(super) fn add(a: Rgb, b: Rgb, k: f32) -> Rgb {
    [a[0] + b[0] * k, a[1] + b[1] * k, a[2] + b[2] * k]
}

/// Piecewise smooth gradient through `(position, colour)` stops sorted by position.
pub(super) fn gradient(stops: &[(f32, Rgb)], t: f32) -> Rgb {
    let mut prev = match stops.first() {
        Some(s) => *s,
        None => return [0.0; 3],
    };
    for &(pos, col) in stops.iter().skip(1) {
        if t <= pos {
            let span = (pos - prev.0).max(1e-6);
            return mix(prev.1, col, smooth01((t - prev.0) / span));
        }
        prev = (pos, col);
    }
    prev.1
}

/// Anti-aliased coverage of a shape given its signed distance in pixels (negative inside).
#[inline(always)]
pub(super) fn coverage(sd: f32) -> f32 {
    (0.5 - sd).clamp(0.0, 1.0)
}

pub(super) struct Circle {
    pub(super) x: f32,
    pub(super) y: f32,
    pub(super) r: f32,
    pub(super) soft: f32,
    pub(super) alpha: f32,
    pub(super) col: Rgb,
}

/// Style 0: dusk sky gradient, glowing sun (sometimes with retro slats), soft bokeh
/// circles and layered hills.
pub(super) fn paint_landscape(rng: &mut Rng, img: &mut [u8]) {
    // Curated dusk palettes (top of sky to horizon): interpolating arbitrary hues gives
    // muddy greys, so the seed picks one of these and only nudges its brightness.
    const PALETTES: [[u32; 4]; 8] = [
        [0x1a0b3d, 0x5b1e74, 0xe0457b, 0xffb36b],
        [0x0b1d3a, 0x1f4e79, 0x4fa3c7, 0xf4d6a0],
        [0x2b1b3f, 0x7b3f8c, 0xf07f7f, 0xffd9a0],
        [0x0f2a2a, 0x2e6b5e, 0x9cc9a0, 0xf7efc0],
        [0x200a1a, 0x6e1a3a, 0xd8504d, 0xf9c46b],
        [0x1c1a3a, 0x4b4a8f, 0xb39ddb, 0xffe0c2],
        [0x04151f, 0x0e4d64, 0x2fa59a, 0xf2e3a6],
        [0x1d1030, 0x3f2a7a, 0xff7e5f, 0xfeb47b],
    ];
    let pal = rng.pick(&PALETTES, [0x1a0b3d, 0x5b1e74, 0xe0457b, 0xffb36b]);
    let lift = 0.92 + 0.16 * rng.unit();
    let col = |i: usize| -> Rgb {
        let v = pal.get(i).copied().unwrap_or(0);
        let ch = |shift: u32| (((v >> shift) & 0xff) as f32 / 255.0 * lift).min(1.0);
        [ch(16), ch(8), ch(0)]
    };
    let (c0, c1, c2, c3) = (col(0), col(1), col(2), col(3));
    let horizon = 0.62 + rng.unit() * 0.08;
    let sky = [
        (0.0, c0),
        (0.3, c1),
        (horizon - 0.08, c2),
        (horizon + 0.1, c3),
    ];
    let sun_x = 140.0 + rng.unit() * 232.0;
    let sun_y = 200.0 + rng.unit() * 90.0;
    let sun_r = 70.0 + rng.unit() * 45.0;
    let sun_top = mix(c3, [1.0, 1.0, 0.92], 0.6);
    let sun_bottom = mix(c2, c3, 0.35);
    let slats = rng.unit() < 0.5;
    let circles: Vec<Circle> = (0..10 + rng.below(6))
        .map(|_| Circle {
            x: rng.unit() * SIZE as f32,
            y: rng.unit() * 300.0,
            r: 10.0 + rng.unit() * 45.0,
            soft: 2.0 + rng.unit() * 10.0,
            alpha: 0.06 + rng.unit() * 0.14,
            col: mix(c3, [1.0; 3], 0.3 + 0.4 * rng.unit()),
        })
        .collect();
    // Hills: far to near, darker and more saturated as they come closer.
    let layers = 3;
    let mut ridges = vec![0.0f32; layers * SIZE];
    let mut hill_cols = Vec::with_capacity(layers);
    for l in 0..layers {
        let base = 330.0 + l as f32 * 55.0 + rng.unit() * 20.0;
        let (a1, f1, p1) = (
            18.0 + rng.unit() * 25.0,
            0.006 + rng.unit() * 0.008,
            rng.unit() * TAU,
        );
        let (a2, f2, p2) = (
            5.0 + rng.unit() * 10.0,
            0.02 + rng.unit() * 0.02,
            rng.unit() * TAU,
        );
        for x in 0..SIZE {
            let xf = x as f32;
            if let Some(r) = ridges.get_mut(l * SIZE + x) {
                *r = base + a1 * math::sin(xf * f1 + p1) + a2 * math::sin(xf * f2 + p2);
            }
        }
        let depth = l as f32 / (layers - 1) as f32;
        // Far hills take the sky's middle colour, near ones fade to the darkest tone.
        let far = mix(c1, c2, 0.35);
        let near = mix(c0, [0.0; 3], 0.45);
        let col = mix(far, near, depth);
        hill_cols.push(col);
    }

    for (y, row) in img.chunks_exact_mut(SIZE * 3).enumerate() {
        let yf = y as f32 + 0.5;
        let base = gradient(&sky, yf / SIZE as f32);
        for (x, px) in row.chunks_exact_mut(3).enumerate() {
            let xf = x as f32 + 0.5;
            let mut c = base;
            for b in &circles {
                let d = ((xf - b.x).powi(2) + (yf - b.y).powi(2)).sqrt();
                let cov = ((b.r - d) / b.soft).clamp(0.0, 1.0) * b.alpha;
                if cov > 0.0 {
                    c = mix(c, b.col, cov);
                }
            }
            let d = ((xf - sun_x).powi(2) + (yf - sun_y).powi(2)).sqrt();
            c = add(
                c,
                sun_top,
                0.28 * math::exp(-(d - sun_r).max(0.0) / (sun_r * 0.7)),
            );
            let mut sun = coverage(d - sun_r);
            if slats && yf > sun_y {
                // Horizontal gaps that widen towards the bottom of the sun.
                let k = (yf - sun_y) / sun_r;
                let band = (k * 7.0).fract();
                let gap = 0.12 + 0.4 * k;
                let edge = (band - gap).abs() * sun_r / 7.0;
                if band < gap {
                    sun *= 1.0 - coverage(-edge);
                }
            }
            if sun > 0.0 {
                let t = ((yf - (sun_y - sun_r)) / (2.0 * sun_r)).clamp(0.0, 1.0);
                c = mix(c, mix(sun_top, sun_bottom, t), sun);
            }
            for (l, col) in hill_cols.iter().enumerate() {
                let ridge = ridges.get(l * SIZE + x).copied().unwrap_or(SIZE as f32);
                let cov = coverage(ridge - yf);
                if cov > 0.0 {
                    // A little haze at the hill tops blends them into the sky.
                    let haze = (1.0 - (yf - ridge) / 120.0).clamp(0.0, 1.0)
                        * 0.25
                        * (1.0 - l as f32 / layers as f32);
                    c = mix(c, mix(*col, base, haze), cov);
                }
            }
            store(px, vignette(c, xf, yf), x, y);
        }
    }
}

/// Style 1: dark field with fine diagonal stripes, broken concentric rings and a
/// row of rounded waveform bars across the centre.
pub(super) fn paint_rings(rng: &mut Rng, img: &mut [u8]) {
    let h0 = rng.unit() * 360.0;
    let h1 = h0 + 120.0 + rng.unit() * 90.0;
    // Night-sky backgrounds (teal to violet) flatter every bar colour; hues tied to h0
    // could land on olive.
    let bg_h = 200.0 + rng.unit() * 80.0;
    let bg_a = hsv(bg_h, 0.7, 0.08);
    let bg_b = hsv(bg_h + 25.0, 0.6, 0.2);
    let c_a = hsv(h0, 0.75, 1.0);
    let c_b = hsv(h1, 0.65, 1.0);
    let (cx, cy) = (256.0 + rng.bipolar() * 30.0, 256.0 + rng.bipolar() * 30.0);
    let spacing = 16.0 + rng.unit() * 10.0;
    let ring_w = 2.0 + rng.unit() * 3.0;
    let max_r = 200.0 + rng.unit() * 40.0;
    let ring_count = (max_r / spacing) as usize + 2;
    // Each ring has its own arc gap count and rotation.
    let arcs: Vec<(f32, f32, f32)> = (0..ring_count)
        .map(|_| {
            (
                (1 + rng.below(4)) as f32,
                rng.unit(),
                0.15 + rng.unit() * 0.35,
            )
        })
        .collect();
    let bars = 36 + rng.below(16);
    let x0 = 56.0f32;
    let pitch = (SIZE as f32 - 2.0 * x0) / bars as f32;
    let bar_w = pitch * (0.45 + rng.unit() * 0.2);
    let (w1, w2, ph) = (
        1.0 + rng.unit() * 2.0,
        4.0 + rng.unit() * 4.0,
        rng.unit() * TAU,
    );
    let heights: Vec<f32> = (0..bars)
        .map(|i| {
            let u = (i as f32 + 0.5) / bars as f32;
            let envelope = math::powf(math::sin(PI * u), 0.8);
            let wave =
                0.55 + 0.25 * math::sin(TAU * w1 * u + ph) + 0.2 * math::sin(TAU * w2 * u).abs();
            (8.0 + 120.0 * envelope * wave * (0.7 + 0.3 * rng.unit())).max(bar_w)
        })
        .collect();
    let bar_y = 256.0f32;

    for (y, row) in img.chunks_exact_mut(SIZE * 3).enumerate() {
        let yf = y as f32 + 0.5;
        for (x, px) in row.chunks_exact_mut(3).enumerate() {
            let xf = x as f32 + 0.5;
            let mut c = mix(
                bg_a,
                bg_b,
                ((xf + yf) / (2.0 * SIZE as f32)).clamp(0.0, 1.0),
            );
            // Fine diagonal stripes.
            let stripe = ((xf - yf) / 22.0).rem_euclid(1.0);
            c = add(
                c,
                [1.0, 1.0, 1.0],
                0.025 * coverage((stripe - 0.5).abs() * 22.0 - 2.0),
            );

            let (dx, dy) = (xf - cx, yf - cy);
            let d = (dx * dx + dy * dy).sqrt();
            if d < max_r + spacing {
                let k = (d / spacing).round();
                let line = (d - k * spacing).abs() - ring_w * 0.5;
                let ang = (math::atan2(dy, dx) / TAU).rem_euclid(1.0);
                if let Some(&(count, rot, gap)) = arcs.get(k as usize) {
                    let a = (ang * count + rot).fract();
                    let arc_edge = (a - gap).min(1.0 - a) * TAU * d / count;
                    let cov = coverage(line)
                        * coverage(-arc_edge)
                        * (1.0 - smooth01((d - max_r * 0.55) / (max_r * 0.45)));
                    if cov > 0.0 && k > 0.0 {
                        let col = mix(c_a, c_b, 0.5 + 0.5 * math::sin(ang * TAU + k * 0.4));
                        c = mix(c, col, cov * 0.85);
                    }
                }
            }
            // Bars: check the nearest two for glow and shape.
            let fi = ((xf - x0) / pitch).floor();
            let mut glow = 0.0f32;
            for j in [fi - 1.0, fi, fi + 1.0] {
                if j < 0.0 {
                    continue;
                }
                let Some(&h) = heights.get(j as usize) else {
                    continue;
                };
                let bx = x0 + (j + 0.5) * pitch;
                let sd = round_box(xf - bx, yf - bar_y, bar_w * 0.5, h * 0.5, bar_w * 0.5);
                let col = mix(c_a, c_b, (j + 0.5) / bars as f32);
                glow = glow.max(math::exp(-sd.max(0.0) / 10.0) * 0.35);
                let cov = coverage(sd);
                if cov > 0.0 {
                    let sheen = 0.85 + 0.15 * (1.0 - ((yf - bar_y) / (h * 0.5)).abs());
                    c = mix(c, [col[0] * sheen, col[1] * sheen, col[2] * sheen], cov);
                }
            }
            if glow > 0.0 {
                let col = mix(c_a, c_b, (xf - x0) / (SIZE as f32 - 2.0 * x0));
                c = add(c, col, glow * 0.35);
            }
            store(px, vignette(c, xf, yf), x, y);
        }
    }
}

/// Signed distance to a rounded box centred at the origin.
pub(super) fn round_box(px: f32, py: f32, hw: f32, hh: f32, r: f32) -> f32 {
    let qx = px.abs() - hw + r;
    let qy = py.abs() - hh + r;
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - r
}

pub(super) fn vignette(c: Rgb, x: f32, y: f32) -> Rgb {
    let dx = x / SIZE as f32 - 0.5;
    let dy = y / SIZE as f32 - 0.5;
    let k = 1.0 - 0.45 * smooth01((dx * dx + dy * dy) * 2.2);
    [c[0] * k, c[1] * k, c[2] * k]
}

/// 4x4 ordered dither (about half a code value) hides banding in the smooth gradients.
pub(super) const BAYER: [f32; 16] = [
    0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0,
];

#[inline(always)]
pub(super) fn store(px: &mut [u8], c: Rgb, x: usize, y: usize) {
    let d = BAYER.get((y % 4) * 4 + x % 4).copied().unwrap_or(0.0) / 16.0 - 0.47;
    for (o, v) in px.iter_mut().zip(c) {
        *o = (v.clamp(0.0, 1.0) * 255.0 + 0.5 + d).clamp(0.0, 255.0) as u8;
    }
}

/// The pixels of a cover: `SIZE`x`SIZE` RGB bytes, row by row (see [`cover_png`]).
pub(super) fn cover_rgb(seed: u64, style: u8) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ 0xC0FE_u64.rotate_left(40) ^ u64::from(style % 2));
    let mut img = vec![0u8; SIZE * SIZE * 3];
    if style.is_multiple_of(2) {
        paint_landscape(&mut rng, &mut img);
    } else {
        paint_rings(&mut rng, &mut img);
    }
    img
}

/// A 512x512 8-bit RGB PNG cover, deterministic in `seed`. Style 0 is a dusk landscape
/// (multi-stop gradient sky, glowing sun, soft circles, hills); style 1 is geometric
/// (broken concentric rings and waveform bars on a dark striped field). Other style
/// values use `style % 2`. Empty `Vec` only if encoding fails.
pub fn cover_png(seed: u64, style: u8) -> Vec<u8> {
    let img = cover_rgb(seed, style);
    let mut out = Vec::with_capacity(img.len() / 3);
    let ok = (|| -> Result<(), png::EncodingError> {
        let mut enc = png::Encoder::new(&mut out, SIZE as u32, SIZE as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header()?;
        w.write_image_data(&img)?;
        w.finish()
    })();
    if ok.is_ok() {
        out
    } else {
        Vec::new()
    }
}
