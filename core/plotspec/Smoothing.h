#pragma once
// Curve smoothing as TensorBoard's scalar dashboard does it: an exponential
// moving average debiased for its zero start, so the first points are not
// pulled towards 0.
//   ema_k = s·ema_{k−1} + (1−s)·v_k   (ema_0 = 0)
//   out_k = ema_k / (1 − s^k)          (k = number of finite values so far)
// NaN and infinite values are passed through and do not enter the average.
#include <QVector>

namespace moewb::plots {

// smoothing in [0,1): 0 returns the values unchanged; values outside are clamped
// to [0, 0.999].
QVector<double> debiasedEma(const QVector<double>& values, double smoothing);

} // namespace moewb::plots
