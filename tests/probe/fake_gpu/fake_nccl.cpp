// A stand-in libnccl.so.2 for tests without GPUs: every rank of the communicator must
// live in this process (moe-probe -g N with one process); sends and receives queued in
// a group are matched and copied with memcpy at ncclGroupEnd. FAKE_NCCL_VERSION sets
// the version code (default 22809); ncclAlltoAll is used by the probe only from 22803.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

namespace {

// id: which communicator (ranks of different communicators never match); from the
// ncclUniqueId for ncclCommInitRank, from the parent and the color for ncclCommSplit.
struct FakeComm {
    int nranks;
    int rank;
    long id;
};

// ncclCommSplit calls of the current group: their sizes are known at ncclGroupEnd.
std::vector<FakeComm*> g_pending_splits;

struct Transfer {
    FakeComm* comm;
    int peer;
    char* buffer;
    std::size_t bytes;
};

std::vector<Transfer> g_sends, g_recvs;
int g_group_depth = 0;
int g_failed = 0;

// Tells the test which NCCL calls the probe made (stderr, at exit).
struct CallCounts {
    long alltoall = 0;
    long send = 0;
    long split = 0;
    long init = 0;
    ~CallCounts() {
        std::fprintf(stderr, "fake-nccl: ncclAlltoAll=%ld ncclSend=%ld ncclCommSplit=%ld ncclCommInitRank=%ld\n",
                     alltoall, send, split, init);
    }
} g_calls;

long g_next_unique_id = 1;

std::size_t type_size(int type) {
    switch (type) {
    case 0:
    case 1:
        return 1;
    case 6:
    case 9:
        return 2;
    case 2:
    case 3:
    case 7:
        return 4;
    default:
        return 8;
    }
}

void run_queued() {
    for (const Transfer& s : g_sends) {
        bool matched = false;
        for (Transfer& r : g_recvs) {
            if (r.buffer && r.comm->id == s.comm->id && r.comm->rank == s.peer && r.peer == s.comm->rank) {
                if (r.bytes != s.bytes)
                    g_failed = 1;
                std::memcpy(r.buffer, s.buffer, std::min(r.bytes, s.bytes));
                r.buffer = nullptr; // consumed, in posting order
                matched = true;
                break;
            }
        }
        if (!matched)
            g_failed = 1;
    }
    for (const Transfer& r : g_recvs)
        if (r.buffer)
            g_failed = 1;
    g_sends.clear();
    g_recvs.clear();
}

} // namespace

extern "C" {
typedef struct {
    char internal[128];
} ncclUniqueId;

int ncclGetVersion(int* v) {
    const char* e = std::getenv("FAKE_NCCL_VERSION");
    *v = e ? std::atoi(e) : 22809;
    return 0;
}
int ncclGetUniqueId(ncclUniqueId* id) {
    std::memset(id, 7, sizeof *id);
    const long serial = g_next_unique_id++;
    std::memcpy(id->internal, &serial, sizeof serial);
    return 0;
}
int ncclCommInitRank(void** comm, int nranks, ncclUniqueId id, int rank) {
    ++g_calls.init;
    long serial = 0;
    std::memcpy(&serial, id.internal, sizeof serial);
    if (rank < 0 || rank >= nranks)
        g_failed = 1;
    *comm = new FakeComm{nranks, rank, serial};
    return 0;
}
int ncclCommSplit(void* parent, int color, int key, void** newcomm, void*) {
    ++g_calls.split;
    auto* p = static_cast<FakeComm*>(parent);
    // The new rank is the key (the probe gives 0..n-1); the size is counted at ncclGroupEnd.
    auto* c = new FakeComm{1, key, p->id * 1000003L + color + 1};
    g_pending_splits.push_back(c);
    *newcomm = c;
    return 0;
}
int ncclCommDestroy(void* c) {
    delete static_cast<FakeComm*>(c);
    return 0;
}
int ncclCommAbort(void* c) {
    delete static_cast<FakeComm*>(c);
    return 0;
}
int ncclCommGetAsyncError(void*, int* e) {
    *e = g_failed ? 5 : 0;
    return 0;
}
const char* ncclGetErrorString(int) {
    return "fake NCCL error";
}
int ncclGroupStart() {
    ++g_group_depth;
    return 0;
}
int ncclGroupEnd() {
    if (--g_group_depth == 0) {
        for (FakeComm* c : g_pending_splits) {
            c->nranks = 0;
            for (FakeComm* d : g_pending_splits)
                c->nranks += d->id == c->id;
            if (c->rank < 0 || c->rank >= c->nranks)
                g_failed = 1;
        }
        g_pending_splits.clear();
        run_queued();
    }
    return g_failed ? 5 : 0;
}
int ncclSend(const void* buf, std::size_t count, int type, int peer, void* comm, void*) {
    ++g_calls.send;
    g_sends.push_back({static_cast<FakeComm*>(comm), peer, static_cast<char*>(const_cast<void*>(buf)),
                       count * type_size(type)});
    return 0;
}
int ncclRecv(void* buf, std::size_t count, int type, int peer, void* comm, void*) {
    g_recvs.push_back({static_cast<FakeComm*>(comm), peer, static_cast<char*>(buf), count * type_size(type)});
    return 0;
}
int ncclAlltoAll(const void* send, void* recv, std::size_t count, int type, void* comm, void* stream) {
    auto* c = static_cast<FakeComm*>(comm);
    const std::size_t chunk = count * type_size(type);
    ncclGroupStart();
    for (int p = 0; p < c->nranks; ++p) {
        ncclSend(static_cast<const char*>(send) + static_cast<std::size_t>(p) * chunk, count, type, p, comm,
                 stream);
        ncclRecv(static_cast<char*>(recv) + static_cast<std::size_t>(p) * chunk, count, type, p, comm,
                 stream);
    }
    ++g_calls.alltoall;
    g_calls.send -= c->nranks; // the sends above are the all-to-all's own
    return ncclGroupEnd();
}
}
