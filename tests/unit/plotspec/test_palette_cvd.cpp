// The plot palettes stay readable with colour-vision deficiency: every pair of
// categorical colours that can appear in one plot (the seven series colours and the
// black of reference lines) stays distinguishable under simulated protanopia,
// deuteranopia and tritanopia, and the heatmap scale keeps a monotonic lightness under
// each simulation (and in grey scale, which is its lightness). A red/green palette is
// run through the same check and must fail it, so the check can fail.
//
// Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for
// Simulation of Color Vision Deficiency", IEEE TVCG 15(6), severity 1.0 (dichromacy),
// applied to linear RGB; the result is clamped to [0,1] and compared in CIELAB (D65)
// with CIE ΔE2000.
#include "plotspec/Palette.h"

#include <QtTest>

#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>

using namespace moewb::plots;

namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;
using Vec3 = std::array<double, 3>;

struct Deficiency {
    const char* name;
    Mat3 m;
};

// Machado et al. (2009), Table 1, severity 1.0.
const Deficiency kDeficiencies[] = {
    {"normal vision", {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
    {"protanopia",
     {{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}}},
    {"deuteranopia",
     {{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}}},
    {"tritanopia",
     {{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}}},
};

// The least ΔE2000 two categorical colours in one plot must keep. ΔE2000 ≈ 2.3 is
// the just-noticeable difference for two large patches side by side; plot lines and
// markers are thin and lie apart, and a legend entry must be matched to its line at a
// glance, which takes several times that. 10 is the usual floor for a categorical
// data-visualisation palette ("clearly different, not merely discernible"); the
// Okabe–Ito colours keep at least 10.8 (tritanopia: orange against reddish purple),
// while a red/green pair falls to about 5 under deuteranopia.
constexpr double kMinDeltaE = 10.0;

double toLinear(double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

Vec3 linearRgb(quint32 rgb) {
    return {toLinear(((rgb >> 16) & 0xFF) / 255.0), toLinear(((rgb >> 8) & 0xFF) / 255.0),
            toLinear((rgb & 0xFF) / 255.0)};
}

Vec3 simulate(const Vec3& lin, const Mat3& m) {
    Vec3 out{};
    for (int i = 0; i < 3; ++i)
        out[i] = std::clamp(m[i][0] * lin[0] + m[i][1] * lin[1] + m[i][2] * lin[2], 0.0, 1.0);
    return out;
}

// Linear sRGB → CIELAB, D65 white.
Vec3 lab(const Vec3& lin) {
    const double x = 0.4124564 * lin[0] + 0.3575761 * lin[1] + 0.1804375 * lin[2];
    const double y = 0.2126729 * lin[0] + 0.7151522 * lin[1] + 0.0721750 * lin[2];
    const double z = 0.0193339 * lin[0] + 0.1191920 * lin[1] + 0.9503041 * lin[2];
    auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
    const double fx = f(x / 0.95047), fy = f(y / 1.0), fz = f(z / 1.08883);
    return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

double deg(double rad) { return rad * 180.0 / M_PI; }
double rad(double deg) { return deg * M_PI / 180.0; }

// CIE ΔE2000 (Sharma, Wu & Dalal 2005), kL = kC = kH = 1.
double deltaE2000(const Vec3& p, const Vec3& q) {
    const double c1 = std::hypot(p[1], p[2]), c2 = std::hypot(q[1], q[2]);
    const double cBar7 = std::pow((c1 + c2) / 2.0, 7.0);
    const double g = 0.5 * (1.0 - std::sqrt(cBar7 / (cBar7 + std::pow(25.0, 7.0))));
    const double a1 = (1.0 + g) * p[1], a2 = (1.0 + g) * q[1];
    const double c1p = std::hypot(a1, p[2]), c2p = std::hypot(a2, q[2]);
    auto hue = [](double b, double a) {
        if (a == 0.0 && b == 0.0)
            return 0.0;
        const double h = deg(std::atan2(b, a));
        return h < 0 ? h + 360.0 : h;
    };
    const double h1 = hue(p[2], a1), h2 = hue(q[2], a2);
    const double dL = q[0] - p[0];
    const double dC = c2p - c1p;
    double dh = 0.0;
    if (c1p * c2p != 0.0) {
        dh = h2 - h1;
        if (dh > 180.0)
            dh -= 360.0;
        else if (dh < -180.0)
            dh += 360.0;
    }
    const double dH = 2.0 * std::sqrt(c1p * c2p) * std::sin(rad(dh / 2.0));
    const double lBar = (p[0] + q[0]) / 2.0;
    const double cBarP = (c1p + c2p) / 2.0;
    double hBar = h1 + h2;
    if (c1p * c2p != 0.0) {
        if (std::abs(h1 - h2) <= 180.0)
            hBar = (h1 + h2) / 2.0;
        else
            hBar = (h1 + h2 < 360.0) ? (h1 + h2 + 360.0) / 2.0 : (h1 + h2 - 360.0) / 2.0;
    }
    const double t = 1.0 - 0.17 * std::cos(rad(hBar - 30.0)) + 0.24 * std::cos(rad(2.0 * hBar)) +
                     0.32 * std::cos(rad(3.0 * hBar + 6.0)) - 0.20 * std::cos(rad(4.0 * hBar - 63.0));
    const double dTheta = 30.0 * std::exp(-std::pow((hBar - 275.0) / 25.0, 2.0));
    const double cBarP7 = std::pow(cBarP, 7.0);
    const double rc = 2.0 * std::sqrt(cBarP7 / (cBarP7 + std::pow(25.0, 7.0)));
    const double sl = 1.0 + 0.015 * std::pow(lBar - 50.0, 2.0) / std::sqrt(20.0 + std::pow(lBar - 50.0, 2.0));
    const double sc = 1.0 + 0.045 * cBarP;
    const double sh = 1.0 + 0.015 * cBarP * t;
    const double rt = -std::sin(rad(2.0 * dTheta)) * rc;
    return std::sqrt(std::pow(dL / sl, 2.0) + std::pow(dC / sc, 2.0) + std::pow(dH / sh, 2.0) +
                     rt * (dC / sc) * (dH / sh));
}

QString hex(quint32 rgb) { return QStringLiteral("#%1").arg(rgb, 6, 16, QLatin1Char('0')).toUpper(); }

// Every pair that falls under kMinDeltaE under some simulation, in words.
QStringList confusablePairs(const QVector<quint32>& colours, double* least = nullptr) {
    QStringList found;
    double min = 1e9;
    for (const Deficiency& d : kDeficiencies) {
        for (int i = 0; i < colours.size(); ++i)
            for (int j = i + 1; j < colours.size(); ++j) {
                const double e = deltaE2000(lab(simulate(linearRgb(colours[i]), d.m)),
                                            lab(simulate(linearRgb(colours[j]), d.m)));
                min = std::min(min, e);
                if (e < kMinDeltaE)
                    found << QStringLiteral("%1: %2 vs %3, ΔE2000 %4")
                                 .arg(QLatin1String(d.name), hex(colours[i]), hex(colours[j]))
                                 .arg(e, 0, 'f', 1);
            }
    }
    if (least)
        *least = min;
    return found;
}

// The colours one plot can show together: every series colour the cycle yields and
// the reference lines' black.
QVector<quint32> coloursInOnePlot() {
    QVector<quint32> colours;
    for (int i = 0; i < 7; ++i)
        colours << paletteColour(i);
    colours << paletteColour(-1);
    return colours;
}

} // namespace

class TestPaletteCvd : public QObject {
    Q_OBJECT
private slots:
    void deltaE2000MatchesPublishedPairs() {
        // Sharma, Wu & Dalal (2005), Table 1, pairs 1, 7 and 17.
        QVERIFY(std::abs(deltaE2000({50.0, 2.6772, -79.7751}, {50.0, 0.0, -82.7485}) - 2.0425) < 1e-3);
        QVERIFY(std::abs(deltaE2000({50.0, 0.0, 0.0}, {50.0, -1.0, 2.0}) - 2.3669) < 1e-3);
        QVERIFY(std::abs(deltaE2000({50.0, 2.5, 0.0}, {73.0, 25.0, -18.0}) - 27.1492) < 1e-3);
        // The simulations keep white white and black black.
        for (const Deficiency& d : kDeficiencies) {
            const Vec3 w = lab(simulate(linearRgb(0xFFFFFF), d.m));
            QVERIFY2(std::abs(w[0] - 100.0) < 0.5, d.name);
            QVERIFY2(lab(simulate(linearRgb(0x000000), d.m))[0] < 0.01, d.name);
        }
    }

    void categoricalColoursStayDistinct() {
        const QVector<quint32> colours = coloursInOnePlot();
        // Seven distinct series colours and black.
        QCOMPARE(QSet<quint32>(colours.begin(), colours.end()).size(), 8);
        double least = 0.0;
        const QStringList bad = confusablePairs(colours, &least);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
        qInfo("least ΔE2000 between two plot colours under any simulation: %.1f", least);
    }

    void aRedGreenPaletteFailsTheCheck() {
        // The check can fail: a red/green pair (the classic spreadsheet pair) is confused
        // under deuteranopia, while it is far apart for normal vision.
        const QStringList bad = confusablePairs({0xD62728, 0x2CA02C});
        QVERIFY(!bad.isEmpty());
        QVERIFY2(bad.join(QLatin1Char(' ')).contains(QStringLiteral("deuteranopia")), qPrintable(bad.join(QLatin1Char(' '))));
        QVERIFY(!bad.join(QLatin1Char(' ')).contains(QStringLiteral("normal vision")));
    }

    void heatmapLightnessIsMonotonic() {
        // The map as drawn (stops and the interpolation between them), under every
        // simulation: lightness must rise from low to high values, by a visible step
        // between neighbouring stops, and span most of the L* range. Between two of the
        // 201 samples it may stand still or dip by less than 0.25 L* (a quarter of the
        // smallest lightness step anyone sees): near yellow, the tritanopia simulation
        // leaves the RGB gamut and its clamp flattens the top of the map by 0.06 L*.
        for (const Deficiency& d : kDeficiencies) {
            double previous = -1.0;
            for (int i = 0; i <= 200; ++i) {
                const double l = lab(simulate(linearRgb(sequentialColour(i / 200.0)), d.m))[0];
                QVERIFY2(l > previous - 0.25, qPrintable(QStringLiteral("%1: lightness falls at t=%2 (%3 after %4)")
                                                      .arg(QLatin1String(d.name))
                                                      .arg(i / 200.0)
                                                      .arg(l)
                                                      .arg(previous)));
                previous = std::max(previous, l);
            }
            const QVector<quint32> stops = sequentialStops();
            for (int i = 1; i < stops.size(); ++i) {
                const double step = lab(simulate(linearRgb(stops[i]), d.m))[0] -
                                    lab(simulate(linearRgb(stops[i - 1]), d.m))[0];
                QVERIFY2(step > 5.0, qPrintable(QStringLiteral("%1: stops %2 and %3 differ by L* %4")
                                                    .arg(QLatin1String(d.name), hex(stops[i - 1]), hex(stops[i]))
                                                    .arg(step)));
            }
            const double span = lab(simulate(linearRgb(sequentialColour(1.0)), d.m))[0] -
                                lab(simulate(linearRgb(sequentialColour(0.0)), d.m))[0];
            QVERIFY2(span > 60.0, d.name);
        }
    }

    void aRainbowHeatmapFailsTheCheck() {
        // The check can fail: a rainbow (blue → green → yellow → red) falls in lightness
        // after yellow.
        const QVector<quint32> rainbow = {0x0000FF, 0x00FF00, 0xFFFF00, 0xFF0000};
        bool falls = false;
        for (int i = 1; i < rainbow.size(); ++i)
            falls |= lab(linearRgb(rainbow[i]))[0] <= lab(linearRgb(rainbow[i - 1]))[0];
        QVERIFY(falls);
    }
};

QTEST_APPLESS_MAIN(TestPaletteCvd)
#include "test_palette_cvd.moc"
