/*
 * thrust/complex.h (ours): thrust::complex<T> and its functions, for host and device code
 * built by our nvcc. Libraries written for NVIDIA's toolkit name it (PyTorch's c10::complex
 * converts to and from it and calls thrust::exp, thrust::log, ... on it); this toolkit has
 * no Thrust, so this header gives the documented interface of that one type (Thrust API,
 * "Complex Numbers"), with the textbook formulas of each function.
 *
 * It lives under include/cccl, which nvcc searches (-isystem) and our NVRTC does not: NVRTC
 * clients bring their own CCCL.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_CPU_THRUST_COMPLEX_H__
#define __CUDA_CPU_THRUST_COMPLEX_H__

#include <cmath>
#include <complex>
#include <ostream>

#if defined(__CUDA__)
#define __THRUST_HD __host__ __device__
#else
#define __THRUST_HD
#endif

namespace thrust {

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  typedef T value_type;

  __THRUST_HD complex(const T &re = T(), const T &im = T()) : re_(re), im_(im) {}
  template <typename U>
  __THRUST_HD complex(const complex<U> &z) : re_(T(z.real())), im_(T(z.imag())) {}
  __THRUST_HD complex(const std::complex<T> &z) : re_(reinterpret_cast<const T(&)[2]>(z)[0]), im_(reinterpret_cast<const T(&)[2]>(z)[1]) {}

  __THRUST_HD T real() const volatile { return re_; }
  __THRUST_HD T imag() const volatile { return im_; }
  __THRUST_HD T real() const { return re_; }
  __THRUST_HD T imag() const { return im_; }
  __THRUST_HD void real(T re) { re_ = re; }
  __THRUST_HD void imag(T im) { im_ = im; }

  __THRUST_HD complex &operator=(const T &re) { re_ = re; im_ = T(); return *this; }
  template <typename U>
  __THRUST_HD complex &operator=(const complex<U> &z) { re_ = T(z.real()); im_ = T(z.imag()); return *this; }
  __THRUST_HD complex &operator+=(const complex &z) { re_ += z.re_; im_ += z.im_; return *this; }
  __THRUST_HD complex &operator-=(const complex &z) { re_ -= z.re_; im_ -= z.im_; return *this; }
  __THRUST_HD complex &operator*=(const complex &z) { return *this = *this * z; }
  __THRUST_HD complex &operator/=(const complex &z) { return *this = *this / z; }
  __THRUST_HD complex &operator+=(const T &x) { re_ += x; return *this; }
  __THRUST_HD complex &operator-=(const T &x) { re_ -= x; return *this; }
  __THRUST_HD complex &operator*=(const T &x) { re_ *= x; im_ *= x; return *this; }
  __THRUST_HD complex &operator/=(const T &x) { re_ /= x; im_ /= x; return *this; }

  operator std::complex<T>() const { return std::complex<T>(re_, im_); }

  friend __THRUST_HD complex operator*(const complex &a, const complex &b) {
    return complex(a.re_ * b.re_ - a.im_ * b.im_, a.re_ * b.im_ + a.im_ * b.re_);
  }
  /* Smith's division: no overflow from squaring the divisor's parts. */
  friend __THRUST_HD complex operator/(const complex &a, const complex &b) {
    using std::fabs;
    if (fabs(b.re_) >= fabs(b.im_)) {
      T r = b.im_ / b.re_, d = b.re_ + r * b.im_;
      return complex((a.re_ + a.im_ * r) / d, (a.im_ - a.re_ * r) / d);
    }
    T r = b.re_ / b.im_, d = b.im_ + r * b.re_;
    return complex((a.re_ * r + a.im_) / d, (a.im_ * r - a.re_) / d);
  }

 private:
  T re_, im_;
};

template <typename T> __THRUST_HD complex<T> operator+(const complex<T> &a, const complex<T> &b) { return complex<T>(a.real() + b.real(), a.imag() + b.imag()); }
template <typename T> __THRUST_HD complex<T> operator+(const complex<T> &a, const T &b) { return complex<T>(a.real() + b, a.imag()); }
template <typename T> __THRUST_HD complex<T> operator+(const T &a, const complex<T> &b) { return complex<T>(a + b.real(), b.imag()); }
template <typename T> __THRUST_HD complex<T> operator-(const complex<T> &a, const complex<T> &b) { return complex<T>(a.real() - b.real(), a.imag() - b.imag()); }
template <typename T> __THRUST_HD complex<T> operator-(const complex<T> &a, const T &b) { return complex<T>(a.real() - b, a.imag()); }
template <typename T> __THRUST_HD complex<T> operator-(const T &a, const complex<T> &b) { return complex<T>(a - b.real(), -b.imag()); }
template <typename T> __THRUST_HD complex<T> operator*(const complex<T> &a, const T &b) { return complex<T>(a.real() * b, a.imag() * b); }
template <typename T> __THRUST_HD complex<T> operator*(const T &a, const complex<T> &b) { return complex<T>(a * b.real(), a * b.imag()); }
template <typename T> __THRUST_HD complex<T> operator/(const complex<T> &a, const T &b) { return complex<T>(a.real() / b, a.imag() / b); }
template <typename T> __THRUST_HD complex<T> operator/(const T &a, const complex<T> &b) { return complex<T>(a) / b; }
template <typename T> __THRUST_HD complex<T> operator+(const complex<T> &a) { return a; }
template <typename T> __THRUST_HD complex<T> operator-(const complex<T> &a) { return complex<T>(-a.real(), -a.imag()); }
template <typename T> __THRUST_HD bool operator==(const complex<T> &a, const complex<T> &b) { return a.real() == b.real() && a.imag() == b.imag(); }
template <typename T> __THRUST_HD bool operator==(const complex<T> &a, const T &b) { return a.real() == b && a.imag() == T(); }
template <typename T> __THRUST_HD bool operator==(const T &a, const complex<T> &b) { return b == a; }
template <typename T> __THRUST_HD bool operator!=(const complex<T> &a, const complex<T> &b) { return !(a == b); }
template <typename T> __THRUST_HD bool operator!=(const complex<T> &a, const T &b) { return !(a == b); }
template <typename T> __THRUST_HD bool operator!=(const T &a, const complex<T> &b) { return !(b == a); }

template <typename T> __THRUST_HD T abs(const complex<T> &z) { using std::hypot; return hypot(z.real(), z.imag()); }
template <typename T> __THRUST_HD T arg(const complex<T> &z) { using std::atan2; return atan2(z.imag(), z.real()); }
template <typename T> __THRUST_HD T norm(const complex<T> &z) { return z.real() * z.real() + z.imag() * z.imag(); }
template <typename T> __THRUST_HD complex<T> conj(const complex<T> &z) { return complex<T>(z.real(), -z.imag()); }
template <typename T> __THRUST_HD complex<T> polar(const T &r, const T &theta = T()) {
  using std::cos;
  using std::sin;
  return complex<T>(r * cos(theta), r * sin(theta));
}
/* The projection onto the Riemann sphere: infinities map to (+inf, +-0). */
template <typename T> __THRUST_HD complex<T> proj(const complex<T> &z) {
  using std::isinf;
  if (isinf(z.real()) || isinf(z.imag())) return complex<T>(INFINITY, z.imag() < 0 ? -T(0) : T(0));
  return z;
}

template <typename T> __THRUST_HD complex<T> exp(const complex<T> &z) {
  using std::cos;
  using std::exp;
  using std::sin;
  T e = exp(z.real());
  return complex<T>(e * cos(z.imag()), e * sin(z.imag()));
}
template <typename T> __THRUST_HD complex<T> log(const complex<T> &z) {
  using std::log;
  return complex<T>(log(thrust::abs(z)), thrust::arg(z));
}
template <typename T> __THRUST_HD complex<T> log10(const complex<T> &z) { return thrust::log(z) / T(2.30258509299404568402); }
/* Principal square root, from |z| without cancellation (Kahan). */
template <typename T> __THRUST_HD complex<T> sqrt(const complex<T> &z) {
  using std::fabs;
  using std::sqrt;
  T x = z.real(), y = z.imag();
  if (x == T(0) && y == T(0)) return complex<T>(T(0), y);
  T t = sqrt((fabs(x) + thrust::abs(z)) / T(2));
  if (x >= T(0)) return complex<T>(t, y / (T(2) * t));
  return complex<T>(fabs(y) / (T(2) * t), y < T(0) ? -t : t);
}
template <typename T> __THRUST_HD complex<T> pow(const complex<T> &z, const complex<T> &w) {
  if (z.real() == T(0) && z.imag() == T(0)) return complex<T>();
  return thrust::exp(w * thrust::log(z));
}
template <typename T> __THRUST_HD complex<T> pow(const complex<T> &z, const T &w) { return thrust::pow(z, complex<T>(w)); }
template <typename T> __THRUST_HD complex<T> pow(const T &z, const complex<T> &w) { return thrust::pow(complex<T>(z), w); }

template <typename T> __THRUST_HD complex<T> sinh(const complex<T> &z) {
  using std::cos;
  using std::cosh;
  using std::sin;
  using std::sinh;
  return complex<T>(sinh(z.real()) * cos(z.imag()), cosh(z.real()) * sin(z.imag()));
}
template <typename T> __THRUST_HD complex<T> cosh(const complex<T> &z) {
  using std::cos;
  using std::cosh;
  using std::sin;
  using std::sinh;
  return complex<T>(cosh(z.real()) * cos(z.imag()), sinh(z.real()) * sin(z.imag()));
}
template <typename T> __THRUST_HD complex<T> tanh(const complex<T> &z) { return thrust::sinh(z) / thrust::cosh(z); }
/* sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz). */
template <typename T> __THRUST_HD complex<T> sin(const complex<T> &z) {
  complex<T> s = thrust::sinh(complex<T>(-z.imag(), z.real()));
  return complex<T>(s.imag(), -s.real());
}
template <typename T> __THRUST_HD complex<T> cos(const complex<T> &z) { return thrust::cosh(complex<T>(-z.imag(), z.real())); }
template <typename T> __THRUST_HD complex<T> tan(const complex<T> &z) {
  complex<T> t = thrust::tanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(t.imag(), -t.real());
}
template <typename T> __THRUST_HD complex<T> asinh(const complex<T> &z) { return thrust::log(z + thrust::sqrt(z * z + T(1))); }
template <typename T> __THRUST_HD complex<T> acosh(const complex<T> &z) {
  return thrust::log(z + thrust::sqrt(z + T(1)) * thrust::sqrt(z - T(1)));
}
template <typename T> __THRUST_HD complex<T> atanh(const complex<T> &z) { return (thrust::log(T(1) + z) - thrust::log(T(1) - z)) / T(2); }
/* asin z = -i asinh(iz), acos z = pi/2 - asin z, atan z = -i atanh(iz). */
template <typename T> __THRUST_HD complex<T> asin(const complex<T> &z) {
  complex<T> s = thrust::asinh(complex<T>(-z.imag(), z.real()));
  return complex<T>(s.imag(), -s.real());
}
template <typename T> __THRUST_HD complex<T> acos(const complex<T> &z) {
  complex<T> s = thrust::asin(z);
  return complex<T>(T(1.57079632679489661923) - s.real(), -s.imag());
}
template <typename T> __THRUST_HD complex<T> atan(const complex<T> &z) {
  complex<T> t = thrust::atanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(t.imag(), -t.real());
}

template <typename T, typename CharT, typename Traits>
std::basic_ostream<CharT, Traits> &operator<<(std::basic_ostream<CharT, Traits> &os, const complex<T> &z) {
  return os << '(' << z.real() << ',' << z.imag() << ')';
}

}  // namespace thrust

#undef __THRUST_HD
#endif
