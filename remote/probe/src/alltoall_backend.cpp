#include "alltoall_backend.h"

#include "probe_errors.h"
#include "probe_options.h"
#include "tcp_mesh_backend.h"

#ifdef MOEWB_PROBE_HAVE_NCCL
#include "nccl_backend.h"
#endif

namespace moeprobe {

bool nccl_backend_built() {
#ifdef MOEWB_PROBE_HAVE_NCCL
    return true;
#else
    return false;
#endif
}

std::unique_ptr<AllToAllBackend> make_alltoall_backend(const ProbeOptions& options, ControlPlane& control) {
    if (options.backend == "tcp")
        return std::make_unique<TcpMeshBackend>(options, control);
    if (options.backend == "nccl") {
#ifdef MOEWB_PROBE_HAVE_NCCL
        return std::make_unique<NcclBackend>(options, control);
#else
        throw RuntimeFailure(
            "this moe-probe was built without the nccl backend (nccl.h/cuda.h were not found at "
            "build time); use --backend tcp or rebuild with the CUDA toolkit headers");
#endif
    }
    throw UsageError("unknown backend '" + options.backend + "'");
}

} // namespace moeprobe
