// nvcc's extended-lambda closure-type traits (see extended_lambda.cpp).
#pragma once

#include <clang/Sema/SemaConsumer.h>

namespace cuda_frontend {

/// A Sema consumer that, once Sema exists, hooks lambda creation so that the closure type
/// of every extended lambda carries the member `__nv_extended_lambda_kind_marker` the
/// traits of include/__nvrtc_core.h read. Place it in the action's consumer list.
class ExtendedLambdaConsumer : public clang::SemaConsumer {
 public:
  void InitializeSema(clang::Sema &sema) override;
};

}  // namespace cuda_frontend
