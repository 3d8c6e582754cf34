//! Entry points that clients link (CuPy's `cupy_backends.cuda.libs.cusparse` needs every
//! one of them to import; PyTorch and CuPy look some up at run time) but this library
//! does not implement: each answers `CUSPARSE_STATUS_NOT_SUPPORTED` and logs its name,
//! whatever its arguments. The arguments are not read, so one C signature (no
//! parameters) serves all of them under the C calling convention.

/// Defines one unsupported export per name.
macro_rules! unsupported {
    ($($name:ident)*) => {$(
        /// Not implemented: `CUSPARSE_STATUS_NOT_SUPPORTED`.
        #[no_mangle]
        pub extern "C" fn $name() -> crate::status::Status {
            crate::status::fail(crate::status::NOT_SUPPORTED, format_args!(concat!(stringify!($name), " is not implemented")))
        }
    )*};
}

unsupported! {
    // Incomplete factorizations (csrilu02/csric02 and their BSR forms).
    cusparseScsrilu02 cusparseDcsrilu02 cusparseCcsrilu02 cusparseZcsrilu02
    cusparseScsrilu02_analysis cusparseDcsrilu02_analysis cusparseCcsrilu02_analysis cusparseZcsrilu02_analysis
    cusparseScsrilu02_bufferSize cusparseDcsrilu02_bufferSize cusparseCcsrilu02_bufferSize cusparseZcsrilu02_bufferSize
    cusparseScsrilu02_numericBoost cusparseDcsrilu02_numericBoost cusparseCcsrilu02_numericBoost cusparseZcsrilu02_numericBoost
    cusparseXcsrilu02_zeroPivot
    cusparseScsric02 cusparseDcsric02 cusparseCcsric02 cusparseZcsric02
    cusparseScsric02_analysis cusparseDcsric02_analysis cusparseCcsric02_analysis cusparseZcsric02_analysis
    cusparseScsric02_bufferSize cusparseDcsric02_bufferSize cusparseCcsric02_bufferSize cusparseZcsric02_bufferSize
    cusparseXcsric02_zeroPivot
    cusparseSbsrilu02 cusparseDbsrilu02 cusparseCbsrilu02 cusparseZbsrilu02
    cusparseSbsrilu02_analysis cusparseDbsrilu02_analysis cusparseCbsrilu02_analysis cusparseZbsrilu02_analysis
    cusparseSbsrilu02_bufferSize cusparseDbsrilu02_bufferSize cusparseCbsrilu02_bufferSize cusparseZbsrilu02_bufferSize
    cusparseSbsrilu02_numericBoost cusparseDbsrilu02_numericBoost cusparseCbsrilu02_numericBoost cusparseZbsrilu02_numericBoost
    cusparseXbsrilu02_zeroPivot
    cusparseSbsric02 cusparseDbsric02 cusparseCbsric02 cusparseZbsric02
    cusparseSbsric02_analysis cusparseDbsric02_analysis cusparseCbsric02_analysis cusparseZbsric02_analysis
    cusparseSbsric02_bufferSize cusparseDbsric02_bufferSize cusparseCbsric02_bufferSize cusparseZbsric02_bufferSize
    cusparseXbsric02_zeroPivot
    // Tridiagonal and pentadiagonal solvers.
    cusparseSgtsv2 cusparseDgtsv2 cusparseCgtsv2 cusparseZgtsv2
    cusparseSgtsv2_bufferSizeExt cusparseDgtsv2_bufferSizeExt cusparseCgtsv2_bufferSizeExt cusparseZgtsv2_bufferSizeExt
    cusparseSgtsv2_nopivot cusparseDgtsv2_nopivot cusparseCgtsv2_nopivot cusparseZgtsv2_nopivot
    cusparseSgtsv2_nopivot_bufferSizeExt cusparseDgtsv2_nopivot_bufferSizeExt cusparseCgtsv2_nopivot_bufferSizeExt cusparseZgtsv2_nopivot_bufferSizeExt
    cusparseSgtsv2StridedBatch cusparseDgtsv2StridedBatch cusparseCgtsv2StridedBatch cusparseZgtsv2StridedBatch
    cusparseSgtsv2StridedBatch_bufferSizeExt cusparseDgtsv2StridedBatch_bufferSizeExt cusparseCgtsv2StridedBatch_bufferSizeExt cusparseZgtsv2StridedBatch_bufferSizeExt
    cusparseSgtsvInterleavedBatch cusparseDgtsvInterleavedBatch cusparseCgtsvInterleavedBatch cusparseZgtsvInterleavedBatch
    cusparseSgtsvInterleavedBatch_bufferSizeExt cusparseDgtsvInterleavedBatch_bufferSizeExt cusparseCgtsvInterleavedBatch_bufferSizeExt cusparseZgtsvInterleavedBatch_bufferSizeExt
    cusparseSgpsvInterleavedBatch cusparseDgpsvInterleavedBatch cusparseCgpsvInterleavedBatch cusparseZgpsvInterleavedBatch
    cusparseSgpsvInterleavedBatch_bufferSizeExt cusparseDgpsvInterleavedBatch_bufferSizeExt cusparseCgpsvInterleavedBatch_bufferSizeExt cusparseZgpsvInterleavedBatch_bufferSizeExt
    // Triangular solves of the generic API (CuPy's spsolve_triangular, PyTorch).
    cusparseSpSM_createDescr cusparseSpSM_destroyDescr cusparseSpSM_bufferSize cusparseSpSM_analysis cusparseSpSM_solve
    cusparseSpSV_createDescr cusparseSpSV_destroyDescr cusparseSpSV_bufferSize cusparseSpSV_analysis cusparseSpSV_solve
    // Generic API entry points of other formats and operations (PyTorch, CuPy on CUDA 13.3+).
    cusparseSDDMM cusparseSDDMM_bufferSize cusparseSDDMM_preprocess
    cusparseSpGEMMreuse_workEstimation cusparseSpGEMMreuse_nnz cusparseSpGEMMreuse_copy cusparseSpGEMMreuse_compute
    cusparseSpGEAM_createDescr cusparseSpGEAM_destroyDescr cusparseSpGEAM_bufferSize cusparseSpGEAM_nnz cusparseSpGEAM
    cusparseCreateBsr cusparseCreateConstBsr cusparseCreateBlockedEll cusparseCreateConstBlockedEll
    cusparseCreateSlicedEll cusparseCreateConstSlicedEll
    cusparseAxpby cusparseRot
}
