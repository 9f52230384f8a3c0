// Baseline for the moe-probe tcp backend: a plain MPI_Alltoall loop timed the same way
// as the probe (per-iteration time = max over ranks, median over the timed iterations,
// algbw = bytes each rank sends / time). Prints "bytes algbw_gbps median_us" per size.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, world = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    const unsigned long long min_bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 65536;
    const unsigned long long max_bytes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64ull << 20;
    const int warmup = argc > 3 ? std::atoi(argv[3]) : 5;
    const int iters = argc > 4 ? std::atoi(argv[4]) : 20;

    for (unsigned long long bytes = min_bytes; bytes <= max_bytes; bytes *= 2) {
        const int per_peer = static_cast<int>(bytes / static_cast<unsigned long long>(world));
        std::vector<char> send(static_cast<std::size_t>(per_peer) * world, static_cast<char>(rank));
        std::vector<char> recv(send.size(), 0);
        for (int i = 0; i < warmup; ++i)
            MPI_Alltoall(send.data(), per_peer, MPI_BYTE, recv.data(), per_peer, MPI_BYTE, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        std::vector<double> local(static_cast<std::size_t>(iters)), worst(local.size());
        for (int i = 0; i < iters; ++i) {
            const double t0 = MPI_Wtime();
            MPI_Alltoall(send.data(), per_peer, MPI_BYTE, recv.data(), per_peer, MPI_BYTE, MPI_COMM_WORLD);
            local[static_cast<std::size_t>(i)] = MPI_Wtime() - t0;
        }
        MPI_Reduce(local.data(), worst.data(), iters, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            std::sort(worst.begin(), worst.end());
            const std::size_t n = worst.size();
            const double median = n % 2 ? worst[n / 2] : 0.5 * (worst[n / 2 - 1] + worst[n / 2]);
            const double sent = static_cast<double>(per_peer) * world;
            std::printf("%llu %.6f %.3f\n", bytes, sent / median / 1e9, median * 1e6);
            std::fflush(stdout);
        }
    }
    MPI_Finalize();
    return 0;
}
