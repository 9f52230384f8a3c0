// Unit tests of the probe's pieces: sizes, options, statistics, traffic patterns, the
// JSON writer, rank facts, the EP layout (against hand-written groups and the main
// tree's RankGrid) and the inventory's sysfs reading.
#include "control_message.h"
#include "ep_layout.h"
#include "hmac_sha256.h"
#include "json_writer.h"
#include "node_inventory.h"
#include "peer_auth.h"
#include "probe_errors.h"
#include "probe_options.h"
#include "rank_facts.h"
#include "sample_statistics.h"
#include "socket_io.h"
#include "traffic_pattern.h"
#include "traffic_plan.h"

#include "record/RankGrid.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <numeric>

#include <sys/socket.h>

using namespace moeprobe;

namespace {

ProbeOptions parse(std::vector<const char*> args) {
    args.insert(args.begin(), "moe-probe");
    return parse_probe_options(static_cast<int>(args.size()), args.data());
}

void writeFile(const QString& path, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

using Groups = std::vector<std::vector<int>>;

// The EP groups of the main tree's RankGrid (core/record): ranks sharing every
// coordinate but ep's, listed by their lowest rank.
Groups rankGridGroups(int world, int tp, int ep, int pp, const QString& order) {
    const int dp = world / (tp * ep * pp);
    const auto grid = moewb::record::RankGrid::make({tp, 1, ep, dp, pp}, order);
    if (!grid)
        return {};
    using moewb::record::ParallelAxis;
    std::map<std::vector<qint64>, std::size_t> index;
    Groups groups;
    for (int r = 0; r < world; ++r) {
        std::vector<qint64> key;
        for (ParallelAxis a : {ParallelAxis::Tp, ParallelAxis::Cp, ParallelAxis::Dp, ParallelAxis::Pp})
            key.push_back(grid->coordinate(r, a));
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, groups.size()).first;
            groups.emplace_back();
        }
        groups[it->second].push_back(r);
    }
    return groups;
}

} // namespace

class TestProbeUnits : public QObject {
    Q_OBJECT
private slots:
    // FIPS 180-2 appendix B (one block, two blocks, a million 'a').
    void sha256KnownAnswers() {
        auto hex = [](const Digest256& d) { return to_hex(d.data(), d.size()); };
        QCOMPARE(hex(sha256("abc")), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
                 std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(hex(sha256(std::string(1000000, 'a'))),
                 std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        QCOMPARE(hex(sha256("")), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        // Fed in odd pieces, the same digest as in one.
        Sha256 s;
        const std::string text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        for (std::size_t i = 0; i < text.size(); i += 7)
            s.update(text.substr(i, 7));
        QCOMPARE(hex(s.finish()), std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    }

    // RFC 4231 test cases 1, 2, 6 and 7 (short key, text key, keys longer than a block).
    void hmacSha256KnownAnswers() {
        auto hex = [](const Digest256& d) { return to_hex(d.data(), d.size()); };
        QCOMPARE(hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")),
                 std::string("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"));
        QCOMPARE(hex(hmac_sha256("Jefe", "what do ya want for nothing?")),
                 std::string("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"));
        QCOMPARE(hex(hmac_sha256(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First")),
                 std::string("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"));
        QCOMPARE(hex(hmac_sha256(std::string(131, '\xaa'),
                                 "This is a test using a larger than block-size key and a larger than block-size "
                                 "data. The key needs to be hashed before being used by the HMAC algorithm.")),
                 std::string("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"));
    }

    // The two sides' proofs differ, and each depends on the secret, both nonces and the
    // claimed rank; a hello survives encoding.
    void handshakeProofsBindEverything() {
        AuthHello h;
        h.channel = AuthChannel::Mesh;
        h.rank = 7;
        h.nonce = random_nonce();
        AuthHello back;
        const std::string bytes = encode_auth_hello(h);
        QCOMPARE(bytes.size(), kAuthHelloBytes);
        QVERIFY(parse_auth_hello(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), back));
        QCOMPARE(back.rank, 7);
        QVERIFY(back.channel == AuthChannel::Mesh);
        QVERIFY(back.nonce == h.nonce);
        QVERIFY(!parse_auth_hello(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size() - 1, back));
        std::string bad = bytes;
        bad[8] = 9; // no such channel
        QVERIFY(!parse_auth_hello(reinterpret_cast<const std::uint8_t*>(bad.data()), bad.size(), back));
        const auto ns = random_nonce();
        const std::string key(32, 'a');
        const auto connector = auth_proof(key, false, h, ns);
        QVERIFY(connector != auth_proof(key, true, h, ns));
        QVERIFY(connector != auth_proof(std::string(32, 'b'), false, h, ns));
        QVERIFY(connector != auth_proof(key, false, h, random_nonce()));
        AuthHello other = h;
        other.rank = 8;
        QVERIFY(connector != auth_proof(key, false, other, ns));
        other = h;
        other.nonce[0] ^= 1;
        QVERIFY(connector != auth_proof(key, false, other, ns));
        other = h;
        other.channel = AuthChannel::Rendezvous;
        QVERIFY(connector != auth_proof(key, false, other, ns));
    }

    // Frames come apart byte by byte as in one piece; the parser never takes bytes of the
    // next frame and refuses a bad magic, an unknown type and an oversized length.
    void controlFrameParser() {
        const std::string a = encode_control_frame(ControlType::Data, "payload one");
        const std::string b = encode_control_frame(ControlType::Release, "");
        const std::string stream = a + b;
        ControlFrameParser parser(1024);
        std::vector<std::pair<ControlType, std::string>> frames;
        for (std::size_t i = 0; i < stream.size();) {
            const std::size_t n = std::min<std::size_t>(parser.wanted(), 1);
            std::size_t used = 0;
            const auto st = parser.feed(stream.data() + i, n, used);
            QCOMPARE(used, n);
            i += used;
            QVERIFY(st != ControlFrameParser::Status::Malformed);
            if (st == ControlFrameParser::Status::Complete)
                frames.emplace_back(parser.type(), parser.take_payload());
        }
        QCOMPARE(frames.size(), std::size_t(2));
        QVERIFY(frames[0].first == ControlType::Data && frames[0].second == "payload one");
        QVERIFY(frames[1].first == ControlType::Release && frames[1].second.empty());

        auto refused = [](std::string frame, std::uint64_t max) {
            ControlFrameParser p(max);
            std::size_t used = 0;
            return p.feed(frame.data(), frame.size(), used) == ControlFrameParser::Status::Malformed;
        };
        std::string badMagic = a;
        badMagic[0] ^= 0x20;
        QVERIFY(refused(badMagic, 1024));
        std::string badType = a;
        badType[4] = 9;
        QVERIFY(refused(badType, 1024));
        QVERIFY(refused(a, 4)); // 11 bytes of payload over a cap of 4
        QVERIFY(!refused(a, 11));
    }

    // Peer text: control characters and bytes outside ASCII escaped, length capped; an
    // abort notice's rank and words decoded.
    void peerTextIsPrintable() {
        QCOMPARE(printable_peer_text("ok \x1b[31mred\x07\r\n\x9b"),
                 std::string("ok \\x1b[31mred\\x07\\x0d\\x0a\\x9b"));
        QCOMPARE(printable_peer_text("a\\b"), std::string("a\\\\b"));
        QCOMPARE(printable_peer_text(std::string(2000, 'x'), 10), std::string(10, 'x') + "... (1990 more bytes)");
        const auto [rank, text] = decode_abort_payload(encode_abort_payload(3, "gone\x1b"));
        QCOMPARE(rank, 3);
        QCOMPARE(text, std::string("gone\\x1b"));
        QCOMPARE(decode_abort_payload("ab").first, -1);
        QCOMPARE(decode_abort_payload(encode_abort_payload(-7, "x")).first, -1);
    }
    // Every text field of a peer's facts is made printable before anything prints it, the
    // GPU lists are capped, and an unusable mesh address is named, not a usage error.
    void peerFactsAreMadePrintable() {
        RankFacts f;
        f.rank = 1;
        f.hostname = "node\x1b]0;owned\x07";
        f.listen = "127.0.0.9:\x1b[2J";
        f.nccl_path = std::string(5000, 'p');
        f.gpu_models.assign(100, "H100\x9b" "31m");
        f.gpu_devices.assign(100, 0);
        make_peer_facts_printable(f);
        QCOMPARE(f.hostname, std::string("node\\x1b]0;owned\\x07"));
        QCOMPARE(f.gpu_models.size(), kMaxPeerGpus);
        QCOMPARE(f.gpu_devices.size(), kMaxPeerGpus);
        QCOMPARE(f.gpu_models.back(), std::string("H100\\x9b31m"));
        QCOMPARE(f.nccl_path.size(), std::size_t{256} + std::string("... (4744 more bytes)").size());
        for (const std::string* t : {&f.hostname, &f.listen, &f.nccl_path, &f.gpu_models.front()})
            for (const char c : *t)
                QVERIFY2(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f, t->c_str());
        const std::string why = unusable_listen_address(f);
        QVERIFY2(why.find("unusable mesh address '127.0.0.9:\\x1b[2J'") != std::string::npos, why.c_str());
        f.listen = "10.0.0.7:41000";
        QCOMPARE(unusable_listen_address(f), std::string());
        f.listen.clear();
        QCOMPARE(unusable_listen_address(f), std::string());
    }
    // Megatron-Core's expert grid (tp = expert TP, cp = 1, ep, dp, pp), first name of the
    // order fastest; the EP group = ranks sharing tp, dp, pp. Expected groups by hand,
    // and the main tree's RankGrid must agree.
    void epLayoutMatchesMegatronAndRankGrid_data() {
        QTest::addColumn<int>("world");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("pp");
        QTest::addColumn<QString>("order");
        QTest::addColumn<QString>("groups"); // "0,2 1,3 ..."
        QTest::newRow("tp2 ep2 default") << 8 << 2 << 2 << 1 << "tp-cp-ep-dp-pp" << "0,2 1,3 4,6 5,7";
        QTest::newRow("ep8 in one node") << 16 << 1 << 8 << 1 << "tp-cp-ep-dp-pp" << "0,1,2,3,4,5,6,7 8,9,10,11,12,13,14,15";
        QTest::newRow("dp before ep: across") << 8 << 1 << 4 << 1 << "tp-cp-dp-ep-pp" << "0,2,4,6 1,3,5,7";
        QTest::newRow("tp2 ep2 pp2") << 16 << 2 << 2 << 2 << "tp-cp-ep-dp-pp"
                                     << "0,2 1,3 4,6 5,7 8,10 9,11 12,14 13,15";
        QTest::newRow("ep fastest, cp and pp left out") << 8 << 2 << 2 << 1 << "ep-tp-dp" << "0,1 2,3 4,5 6,7";
        QTest::newRow("ep = world") << 4 << 1 << 4 << 1 << "tp-cp-ep-dp-pp" << "0,1,2,3";
        QTest::newRow("pp before ep") << 8 << 1 << 2 << 2 << "tp-pp-ep-dp" << "0,2 1,3 4,6 5,7";
    }

    void epLayoutMatchesMegatronAndRankGrid() {
        QFETCH(int, world);
        QFETCH(int, tp);
        QFETCH(int, ep);
        QFETCH(int, pp);
        QFETCH(QString, order);
        QFETCH(QString, groups);
        Groups expected;
        for (const QString& g : groups.split(' ')) {
            expected.emplace_back();
            for (const QString& r : g.split(','))
                expected.back().push_back(r.toInt());
        }
        const EpLayout l = make_ep_layout(world, ep, tp, pp, order.toStdString());
        QVERIFY(l.groups == expected);
        QVERIFY(rankGridGroups(world, tp, ep, pp, order) == expected);
        QCOMPARE(l.dp, world / (tp * ep * pp));
        QVERIFY(!l.whole_world);
        for (int g = 0; g < l.group_count(); ++g)
            for (int i = 0; i < ep; ++i) {
                const int rank = l.groups[static_cast<std::size_t>(g)][static_cast<std::size_t>(i)];
                QCOMPARE(l.group_of[static_cast<std::size_t>(rank)], g);
                QCOMPARE(l.index_in_group[static_cast<std::size_t>(rank)], i);
            }
    }

    void epLayoutRefusesWhatDoesNotFit() {
        QVERIFY_THROWS_EXCEPTION(UsageError, make_ep_layout(8, 3, 1, 1, "tp-cp-ep-dp-pp"));
        QVERIFY_THROWS_EXCEPTION(UsageError, make_ep_layout(8, 2, 2, 4, "tp-cp-ep-dp-pp"));
        QVERIFY_THROWS_EXCEPTION(UsageError, make_ep_layout(8, 2, 2, 1, "ep-dp-pp")); // tp of size 2 left out
        QVERIFY_THROWS_EXCEPTION(UsageError, make_ep_layout(8, 2, 1, 1, "tp-ep-ep"));
        QVERIFY_THROWS_EXCEPTION(UsageError, make_ep_layout(8, 0, 1, 1, "tp-cp-ep-dp-pp"));
        QVERIFY(ep_order_problem("tp-cp-ep-dp-pp").empty());
        QVERIFY(!ep_order_problem("tp-xp").empty());
    }

    void epOptionsBuildTheLayout() {
        const ProbeOptions whole = parse({"--rank", "0", "--world", "4", "--rendezvous", "h:1"});
        QVERIFY(whole.layout.whole_world);
        QCOMPARE(whole.layout.group_count(), 1);
        QCOMPARE(whole.layout.ep, 4);
        QCOMPARE(whole.layout.signature(), std::string("world"));
        const ProbeOptions zero = parse({"--rank", "0", "--world", "4", "--rendezvous", "h:1", "--ep-size", "0"});
        QVERIFY(zero.layout.whole_world);
        const ProbeOptions two =
            parse({"--rank", "1", "--world", "8", "--rendezvous", "h:1", "--ep-size", "2", "--tp", "2"});
        QVERIFY(two.layout.groups == (Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
        QCOMPARE(two.layout.signature(), std::string("ep=2 tp=2 pp=1 order=tp-cp-ep-dp-pp"));
        // nccl -g: the layout is over GPU ranks (processes x -g).
        const ProbeOptions gpus = parse({"--rank", "0", "--world", "2", "--rendezvous", "h:1", "--backend", "nccl",
                                         "-g", "4", "--ep-size", "4", "--ep-order", "tp-dp-ep"});
        QCOMPARE(gpus.layout.world, 8);
        QVERIFY(gpus.layout.groups == (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"--pp", "2"}));
        QVERIFY_THROWS_EXCEPTION(UsageError,
                                 parse({"--rank", "0", "--world", "4", "--rendezvous", "h:1", "--ep-size", "8"}));
    }

    void groupPlanIsBlockDiagonal() {
        const EpLayout l = make_ep_layout(4, 2, 2, 1, "tp-cp-ep-dp-pp"); // {0,2} {1,3}
        const TrafficPlan group = make_traffic_pattern("hot:1:3")->plan(2, 4000);
        const TrafficPlan world = TrafficPlan::for_groups(group, l);
        QCOMPARE(world.world(), 4);
        QCOMPARE(world.bytes(0, 2), group.bytes(0, 1));
        QCOMPARE(world.bytes(2, 0), group.bytes(1, 0));
        QCOMPARE(world.bytes(1, 3), group.bytes(0, 1));
        QCOMPARE(world.bytes(0, 1), 0ull);
        QCOMPARE(world.bytes(3, 2), 0ull);
        QCOMPARE(world.sent_by(3), group.sent_by(1));
        QCOMPARE(world.send_offset(0, 2), group.send_offset(0, 1)); // buffers in group order
        QCOMPARE(world.busiest_rank_bytes(), group.busiest_rank_bytes());
        QCOMPARE(world.uniform(), group.uniform());
    }

    void byteSizesTakeBinarySuffixes() {
        QCOMPARE(parse_byte_size("123"), 123ull);
        QCOMPARE(parse_byte_size("64K"), 65536ull);
        QCOMPARE(parse_byte_size("1M"), 1048576ull);
        QCOMPARE(parse_byte_size("2G"), 2147483648ull);
        QVERIFY_THROWS_EXCEPTION(UsageError, parse_byte_size("1X"));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse_byte_size("M"));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse_byte_size("99999999999G"));
    }

    void sweepFollowsNcclTestsLoop() {
        ProbeOptions o = parse({"-b", "1K", "-e", "16K", "-f", "4"});
        QCOMPARE(sweep_sizes(o), (std::vector<std::uint64_t>{1024, 4096, 16384}));
        o = parse({"-b", "1K", "-e", "3K", "-i", "1K"});
        QCOMPARE(sweep_sizes(o), (std::vector<std::uint64_t>{1024, 2048, 3072}));
    }

    void optionsRejectNonsense() {
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"--bogus"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"-c", "2"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"--rank", "1"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"--rank", "4", "--world", "4", "--rendezvous", "h:1"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"--rank", "0", "--world", "2"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"-b", "2M", "-e", "1M"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"--backend", "gloo"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"-g", "2"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, parse({"--timeout", "-1"}));
    }

    void rankAndWorldComeFromLaunchers() {
        qputenv("SLURM_PROCID", "3");
        qputenv("SLURM_NTASKS", "8");
        qputenv("SLURM_LOCALID", "1");
        ProbeOptions o = parse({"--rendezvous", "node1:29500"});
        QCOMPARE(o.rank, 3);
        QCOMPARE(o.world, 8);
        QCOMPARE(o.launcher_local_rank, 1);
        QCOMPARE(QString::fromStdString(o.launcher), QStringLiteral("slurm"));
        qputenv("OMPI_COMM_WORLD_RANK", "2");
        qputenv("OMPI_COMM_WORLD_SIZE", "4");
        o = parse({"--rendezvous", "node1:29500"}); // Open MPI wins over Slurm
        QCOMPARE(o.rank, 2);
        QCOMPARE(o.world, 4);
        o = parse({"--rank", "0", "--world", "1"}); // the command line wins over both
        QCOMPARE(o.world, 1);
        qunsetenv("SLURM_PROCID");
        qunsetenv("SLURM_NTASKS");
        qunsetenv("SLURM_LOCALID");
        qunsetenv("OMPI_COMM_WORLD_RANK");
        qunsetenv("OMPI_COMM_WORLD_SIZE");
        qputenv("PMI_RANK", "1");
        qputenv("PMI_SIZE", "2");
        o = parse({"--rendezvous", "node1:29500"});
        QCOMPARE(o.rank, 1);
        qunsetenv("PMI_RANK");
        qunsetenv("PMI_SIZE");
    }

    void percentilesMatchNumpyLinear() {
        // numpy.percentile(range(1, 11), [50, 95, 99]) == [5.5, 9.55, 9.91]; std(ddof=1) = 3.0276...
        std::vector<double> v(10);
        std::iota(v.begin(), v.end(), 1.0);
        std::reverse(v.begin(), v.end());
        const SampleSummary s = summarize_samples(v);
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 10.0);
        QCOMPARE(s.mean, 5.5);
        QCOMPARE(s.median, 5.5);
        QVERIFY(std::abs(s.p95 - 9.55) < 1e-12);
        QVERIFY(std::abs(s.p99 - 9.91) < 1e-12);
        QVERIFY(std::abs(s.stddev - 3.0276503540974917) < 1e-12);
        const SampleSummary one = summarize_samples({7.0});
        QCOMPARE(one.p99, 7.0);
        QCOMPARE(one.stddev, 0.0);
    }

    void spreadGivesSampleVarianceAndCv() {
        const SpreadSummary s = summarize_spread({10.0, 12.0, 14.0});
        QCOMPARE(s.mean, 12.0);
        QCOMPARE(s.variance, 4.0);
        QVERIFY(std::abs(s.cv - 2.0 / 12.0) < 1e-12);
        QCOMPARE(summarize_spread({5.0}).cv, 0.0);
    }

    void sameHostConnectionsAreRecognisedAndCapped() {
        // A real TCP connection 127.0.0.1 -> 127.0.0.2 (loopback: one host), both ends.
        const UniqueFd listener = listen_on(parse_host_port("127.0.0.2:0", false));
        const HostPort at = local_address(listener.get());
        const Deadline deadline(10);
        UniqueFd client = connect_with_retry(at, deadline, 1, "test listener");
        UniqueFd server = accept_before(listener.get(), deadline);
        QVERIFY(client.valid() && server.valid());
        QVERIFY(peer_on_this_host(client.get()));
        QVERIFY(peer_on_this_host(server.get()));
        // The cap is what the kernel keeps (Linux doubles the value asked for).
        set_send_buffer(client.get(), 128 << 10);
        int got = 0;
        socklen_t len = sizeof got;
        QCOMPARE(getsockopt(client.get(), SOL_SOCKET, SO_SNDBUF, &got, &len), 0);
        QCOMPARE(got, 2 * (128 << 10));
        // Not a network peer at all (a Unix socket pair), and no socket: never "this host".
        int pair[2];
        QCOMPARE(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
        const UniqueFd a(pair[0]), b(pair[1]);
        QVERIFY(!peer_on_this_host(a.get()));
        QVERIFY(!peer_on_this_host(-1));
    }

    void splitByWeightsAddsUpExactly() {
        const auto parts = split_by_weights(1000003, {1.0, 2.0, 3.0, 0.5});
        QCOMPARE(std::accumulate(parts.begin(), parts.end(), std::uint64_t{0}), 1000003ull);
        QVERIFY(parts[2] > parts[1] && parts[1] > parts[0] && parts[0] > parts[3]);
    }

    void uniformPatternRoundsDownLikeNcclTests() {
        const TrafficPlan p = UniformPattern().plan(4, 1030);
        QCOMPARE(p.bytes(1, 2), 257ull);
        QCOMPARE(p.sent_by(0), 1028ull);
        QVERIFY(p.uniform());
        QCOMPARE(p.send_offset(0, 3), 771ull);
        QCOMPARE(p.recv_offset(2, 1), 257ull);
    }

    void hotDestinationsGetFTimesTheBytes() {
        const auto pattern = make_traffic_pattern("hot:1:4");
        const TrafficPlan p = pattern->plan(4, 7000);
        for (int s = 0; s < 4; ++s) {
            QCOMPARE(p.sent_by(s), 7000ull);
            QCOMPARE(p.bytes(s, 0), 4000ull);
            QCOMPARE(p.bytes(s, 3), 1000ull);
        }
        QCOMPARE(p.received_by(0), 16000ull);
        QCOMPARE(p.busiest_rank(), 0);
        QCOMPARE(p.busiest_rank_bytes(), 12000ull);
        QVERIFY(!p.uniform());
    }

    void zipfFavoursLowRanks() {
        const TrafficPlan p = make_traffic_pattern("zipf:1")->plan(4, 1 << 20);
        QCOMPARE(p.sent_by(2), 1ull << 20);
        QVERIFY(p.bytes(0, 0) > p.bytes(0, 1) && p.bytes(0, 1) > p.bytes(0, 3));
        QVERIFY(std::abs(static_cast<double>(p.bytes(0, 0)) / p.bytes(0, 1) - 2.0) < 1e-3);
    }

    void matrixPatternReplaysOrScales() {
        QTemporaryDir dir;
        const QString path = dir.filePath("m.txt");
        writeFile(path, "# per-pair bytes\n0 1K 2K 1K\n1K, 0, 1K, 0\n4K 4K 0 0\n0 0 0 8K\n");
        const auto pattern = make_traffic_pattern("matrix:" + path.toStdString());
        QCOMPARE(pattern->natural_bytes_per_rank(), 5632ull); // 22 KiB over 4 rows
        const TrafficPlan asIs = pattern->plan(4, 5632);
        QCOMPARE(asIs.sent_by(2), 8192ull);
        QCOMPARE(asIs.received_by(3), 9216ull);
        QCOMPARE(asIs.busiest_rank(), 2);
        const TrafficPlan scaled = pattern->plan(4, 11264);
        QCOMPARE(scaled.bytes(3, 3), 16384ull);
        QCOMPARE(scaled.mean_sent(), 11264.0);
        QVERIFY_THROWS_EXCEPTION(UsageError, pattern->plan(3, 5632));
        writeFile(path, "1 2\n3\n");
        QVERIFY_THROWS_EXCEPTION(UsageError, make_traffic_pattern("matrix:" + path.toStdString()));
        QVERIFY_THROWS_EXCEPTION(UsageError, make_traffic_pattern("matrix:/nonexistent/m.txt"));
        QVERIFY_THROWS_EXCEPTION(UsageError, make_traffic_pattern("hot:0:2"));
        QVERIFY_THROWS_EXCEPTION(UsageError, make_traffic_pattern("zipf:x"));
        QVERIFY_THROWS_EXCEPTION(UsageError, make_traffic_pattern("gaussian"));
    }

    void jsonWriterEscapesAndDropsNonFinite() {
        JsonWriter w(false);
        w.begin_object();
        w.field("s", std::string("a\"b\\c\n\x01"));
        w.field("nan", std::nan(""));
        w.field("inf", HUGE_VAL);
        w.field("x", 1.5);
        w.key("a").begin_array().value(1).value(true).null().end_array();
        w.key("e").begin_object().end_object();
        w.end_object();
        QCOMPARE(QString::fromStdString(w.text()),
                 QStringLiteral("{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"nan\":null,\"inf\":null,\"x\":1.5,\"a\":["
                                "1,true,null],\"e\":{}}"));
        QJsonParseError error{};
        QJsonDocument::fromJson(QByteArray::fromStdString(w.text()), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
    }

    void rankFactsSurviveTheWire() {
        RankFacts f;
        f.rank = 3;
        f.world = 8;
        f.hostname = "gpu-node-7";
        f.listen = "10.0.0.7:41000";
        f.gpu_models = {"NVIDIA H200", "NVIDIA H200"};
        f.gpu_devices = {2, 3};
        f.nccl_version_code = 22809;
        f.nccl_path = "/opt/nccl/lib/libnccl.so.2";
        const std::vector<RankFacts> back = deserialize_rank_table(serialize_rank_table({f, f}));
        QCOMPARE(back.size(), std::size_t{2});
        QCOMPARE(back[1].gpu_devices, (std::vector<int>{2, 3}));
        QCOMPARE(QString::fromStdString(back[0].gpu_models[1]), QStringLiteral("NVIDIA H200"));
        QCOMPARE(QString::fromStdString(back[0].listen), QStringLiteral("10.0.0.7:41000"));
        QCOMPARE(back[0].nccl_version_code, 22809);
    }

    void inventoryReadsLinkRatesFromSysfs() {
        QTemporaryDir sys;
        writeFile(sys.filePath("class/net/eth9/speed"), "100000\n");
        writeFile(sys.filePath("class/net/eth9/operstate"), "up\n");
        writeFile(sys.filePath("class/net/eth9/mtu"), "9000\n");
        writeFile(sys.filePath("class/net/eth9/device/vendor"), "0x15b3\n");
        writeFile(sys.filePath("class/net/lo/speed"), "");
        writeFile(sys.filePath("class/infiniband/mlx5_0/ports/1/rate"), "200 Gb/sec (4X HDR)\n");
        writeFile(sys.filePath("class/infiniband/mlx5_0/ports/1/state"), "4: ACTIVE\n");
        ProbeOptions o;
        o.nccl_lib = "/nonexistent/libnccl.so.2"; // keep the test independent of the machine
        const QJsonObject inv = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                            node_inventory_json(o, sys.path().toStdString())))
                                    .object();
        QCOMPARE(inv.value("schema").toString(), QStringLiteral("moe-probe-inventory/1"));
        QVERIFY(inv.value("nccl").isNull());
        const QJsonArray nics = inv.value("nics").toArray();
        QCOMPARE(nics.size(), 2);
        QCOMPARE(nics[0].toObject().value("name").toString(), QStringLiteral("eth9"));
        QCOMPARE(nics[0].toObject().value("link_rate_gbps").toDouble(), 100.0);
        QCOMPARE(nics[0].toObject().value("mtu").toInt(), 9000);
        QVERIFY(nics[1].toObject().value("link_rate_gbps").isNull());
        const QJsonObject port =
            inv.value("infiniband").toArray()[0].toObject().value("ports").toArray()[0].toObject();
        QCOMPARE(port.value("link_rate_gbps").toDouble(), 200.0);
        QCOMPARE(port.value("state").toString(), QStringLiteral("4: ACTIVE"));
    }
};

QTEST_GUILESS_MAIN(TestProbeUnits)
#include "test_probe_units.moc"
