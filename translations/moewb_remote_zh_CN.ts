<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>RemoteLaunch</name>
    <message>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>uploading probe %1/%2 MB</source>
        <translation>正在上传探针 %1/%2 MB</translation>
    </message>
    <message>
        <source>uploading probe 0.0/%1 MB</source>
        <translation>正在上传探针 0.0/%1 MB</translation>
    </message>
    <message>
        <source>probe already there</source>
        <translation>探针已在节点上</translation>
    </message>
    <message>
        <source>probe uploaded</source>
        <translation>探针已上传</translation>
    </message>
    <message>
        <source>inventory</source>
        <translation>盘点节点</translation>
    </message>
    <message>
        <source>exited with status %1</source>
        <translation>以状态 %1 退出</translation>
    </message>
    <message>
        <source>printed no JSON object (%1)</source>
        <translation>未输出 JSON 对象（%1）</translation>
    </message>
    <message>
        <source>uploading fallback NCCL</source>
        <translation>正在上传备用 NCCL</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>no probe bundle (a directory with moe-probe) in: %1; build the target moe-probe-bundle or set MOEWB_PROBE_BUNDLE</source>
        <translation>在以下位置找不到探针包（含 moe-probe 的目录）：%1；请构建目标 moe-probe-bundle 或设置 MOEWB_PROBE_BUNDLE</translation>
    </message>
    <message>
        <source>%1: cancelled</source>
        <translation>%1：已取消</translation>
    </message>
    <message>
        <source>%1: not checked (another node failed first)</source>
        <translation>%1：未检查（另一个节点先失败了）</translation>
    </message>
    <message>
        <source>%1: process group %2 could not be confirmed ended; it may still be running</source>
        <translation>%1：无法确认进程组 %2 已结束；它可能仍在运行</translation>
    </message>
    <message>
        <source>named %1</source>
        <translation>（名为 %1）</translation>
    </message>
    <message>
        <source>%1: Slurm job %2 may still be running: not connected to scancel it</source>
        <translation>%1：Slurm 作业 %2 可能仍在运行：未连接，无法用 scancel 取消它</translation>
    </message>
    <message>
        <source>%1: Slurm job %2 may still be running: %3</source>
        <translation>%1：Slurm 作业 %2 可能仍在运行：%3</translation>
    </message>
    <message>
        <source>%1: Slurm job %2 may still be running: %3 exited with status %4: %5</source>
        <translation>%1：Slurm 作业 %2 可能仍在运行：%3 以状态 %4 退出：%5</translation>
    </message>
    <message>
        <source>cancelled Slurm job %1 (%2)</source>
        <translation>已取消 Slurm 作业 %1（%2）</translation>
    </message>
    <message>
        <source>%1: no config record named &quot;%2&quot;</source>
        <translation>%1：没有名为“%2”的配置记录</translation>
    </message>
    <message>
        <source>%1: no cluster named &quot;%2&quot;</source>
        <translation>%1：没有名为“%2”的集群</translation>
    </message>
    <message>
        <source>cluster %1: bad node address &quot;%2&quot;: %3</source>
        <translation>集群 %1：节点地址“%2”无效：%3</translation>
    </message>
    <message>
        <source>no nodes: give a cluster with nodes or a node list</source>
        <translation>没有节点：请指定一个含节点的集群或一个节点列表</translation>
    </message>
    <message>
        <source>node count %1 is outside 1..%2 (the nodes of %3)</source>
        <translation>节点数 %1 超出 1..%2（%3 的节点数）</translation>
    </message>
    <message>
        <source>the request</source>
        <translation>本次请求</translation>
    </message>
    <message>
        <source>no message sizes</source>
        <translation>没有消息大小</translation>
    </message>
    <message>
        <source>message sizes must be &gt; 0 bytes per rank</source>
        <translation>消息大小必须 &gt; 0 字节/rank</translation>
    </message>
    <message>
        <source>repeats and iterations must be &gt;= 1, warm-up &gt;= 0</source>
        <translation>重复次数和迭代次数必须 &gt;= 1，预热次数 &gt;= 0</translation>
    </message>
    <message>
        <source>%1: a run named %2 already exists</source>
        <translation>%1：已存在名为 %2 的运行</translation>
    </message>
    <message>
        <source>cannot unpack %1 (zstd): nodes without NCCL get none</source>
        <translation>无法解压 %1（zstd）：没有 NCCL 的节点将得不到 NCCL</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>running %1 nodes, %2%3</source>
        <translation>正在运行 %1 个节点，%2%3</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>rendezvous port %1 busy; trying another</source>
        <translation>汇合（rendezvous）端口 %1 被占用；改试另一个</translation>
    </message>
    <message>
        <source>cancelled during %1; %2 not saved</source>
        <translation>在“%1”期间已取消；%2 未保存</translation>
    </message>
    <message>
        <source>%1: stopped after another node failed</source>
        <translation>%1：因另一个节点失败而停止</translation>
    </message>
    <message>
        <source> (last output: %1)</source>
        <translation>（最后输出：%1）</translation>
    </message>
    <message>
        <source>moe-probe (rank %1)</source>
        <translation>moe-probe（rank %1）</translation>
    </message>
    <message>
        <source>ended without an exit status (killed?)</source>
        <translation>结束时没有退出状态（被终止？）</translation>
    </message>
    <message>
        <source>was killed by signal %1%2 (exit status %3)</source>
        <translation>被信号 %1%2 终止（退出状态 %3）</translation>
    </message>
    <message>
        <source>%1 failed; run %2 not saved</source>
        <translation>“%1”失败；运行 %2 未保存</translation>
    </message>
    <message>
        <source>%1: rank 0 wrote no report at %2; run %3 not saved</source>
        <translation>%1：rank 0 未在 %2 写出报告；运行 %3 未保存</translation>
    </message>
    <message>
        <source>%1: %2; run %3 not saved</source>
        <translation>%1：%2；运行 %3 未保存</translation>
    </message>
    <message>
        <source>run %1 not saved: %2</source>
        <translation>运行 %1 未保存：%2</translation>
    </message>
    <message>
        <source>saved run %1 (%2 samples, %3 nodes)</source>
        <translation>已保存运行 %1（%2 个样本，%3 个节点）</translation>
    </message>
    <message>
        <source>one all-to-all over %1 ranks (%2)</source>
        <translation>%1 个 rank 上的单个 all-to-all（%2）</translation>
    </message>
    <message>
        <source>as asked: --whole-world</source>
        <translation>按要求：--whole-world</translation>
    </message>
    <message>
        <source>the record has no expert parallelism</source>
        <translation>该配置记录未使用专家并行</translation>
    </message>
    <message>
        <source>more ranks than the record&apos;s world of %1</source>
        <translation>rank 数超过配置记录的 world size（%1）</translation>
    </message>
    <message>
        <source>%1 ranks are not whole EP groups of the record (ep %2, expert tp %3, order %4)</source>
        <translation>%1 个 rank 不能组成配置记录中完整的 EP 组（EP %2，专家 TP %3，顺序 %4）</translation>
    </message>
    <message>
        <source>%1 groups of EP %2 at once, laid out as the record&apos;s training (expert tp %3, order %4)</source>
        <translation>%1 个 EP 规模为 %2 的组同时运行，布局与配置记录中的训练一致（专家 TP %3，顺序 %4）</translation>
    </message>
    <message>
        <source>the probe cannot lay out the record&apos;s EP groups on %1 ranks</source>
        <translation>探针无法在 %1 个 rank 上按配置记录排布 EP 组</translation>
    </message>
    <message>
        <source>hot:K:F needs K (hot destinations) and F (their byte factor), e.g. hot:2:4</source>
        <translation>hot:K:F 需要 K（热点目标数）和 F（其字节倍数），例如 hot:2:4</translation>
    </message>
    <message>
        <source>hot:K: K must be a whole number &gt;= 1, not &quot;%1&quot;</source>
        <translation>hot:K：K 必须是 &gt;= 1 的整数，而不是“%1”</translation>
    </message>
    <message>
        <source>hot:K:F: F must be a number &gt; 0, not &quot;%1&quot;</source>
        <translation>hot:K:F：F 必须是 &gt; 0 的数，而不是“%1”</translation>
    </message>
    <message>
        <source>zipf:S: S must be a number &gt;= 0, not &quot;%1&quot;</source>
        <translation>zipf:S：S 必须是 &gt;= 0 的数，而不是“%1”</translation>
    </message>
    <message>
        <source>matrix:FILE needs a file</source>
        <translation>matrix:FILE 需要指定文件</translation>
    </message>
    <message>
        <source>matrix file %1 cannot be read</source>
        <translation>无法读取矩阵文件 %1</translation>
    </message>
    <message>
        <source>matrix file %1 is larger than 64 MiB</source>
        <translation>矩阵文件 %1 大于 64 MiB</translation>
    </message>
    <message>
        <source>%1:%2: &quot;%3&quot; is not a byte size</source>
        <translation>%1:%2：“%3”不是字节大小</translation>
    </message>
    <message>
        <source>%1:%2: the row has %3 entries, the first row has %4</source>
        <translation>%1:%2：该行有 %3 项，而第一行有 %4 项</translation>
    </message>
    <message>
        <source>matrix file %1 has no rows</source>
        <translation>矩阵文件 %1 没有任何行</translation>
    </message>
    <message>
        <source>matrix file %1 is not square: %2 rows of %3 entries</source>
        <translation>矩阵文件 %1 不是方阵：%2 行，每行 %3 项</translation>
    </message>
    <message>
        <source>unknown pattern &quot;%1&quot; (uniform, hot:K:F, zipf:S, matrix:FILE)</source>
        <translation>未知的流量模式“%1”（可选 uniform、hot:K:F、zipf:S、matrix:FILE）</translation>
    </message>
    <message>
        <source>--pattern %1: %2</source>
        <translation>--pattern %1：%2</translation>
    </message>
    <message>
        <source>--pattern %1: the matrix is %2×%2 but %3 nodes run %4 ranks; sweep only --nodes %5 with it</source>
        <translation>--pattern %1：矩阵为 %2×%2，但 %3 个节点运行 %4 个 rank；使用该矩阵时只能扫描 --nodes %5</translation>
    </message>
    <message>
        <source>(none fits)</source>
        <translation>（没有合适的节点数）</translation>
    </message>
    <message>
        <source>uploading traffic matrix</source>
        <translation>正在上传流量矩阵</translation>
    </message>
    <message>
        <source>traffic matrix uploaded</source>
        <translation>流量矩阵已上传</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: not connected</source>
        <translation>%1：未连接</translation>
    </message>
    <message>
        <source>cannot find the home directory for the probe&apos;s run secret</source>
        <translation>找不到用于存放探针本次运行密钥的主目录</translation>
    </message>
    <message>
        <source>cannot create %1 for the probe&apos;s run secret (sftp status %2)</source>
        <translation>无法创建用于存放探针本次运行密钥的 %1（sftp 状态 %2）</translation>
    </message>
    <message>
        <source>the traffic matrix covers the whole world</source>
        <translation>流量矩阵覆盖整个世界（全部 rank）</translation>
    </message>
    <message>
        <source>--pattern %1: the matrix is %2×%2 but %3 nodes run EP groups of %4 (%5); a matrix has an EP group&apos;s or the whole world&apos;s size</source>
        <translation>--pattern %1：矩阵为 %2×%2，但 %3 个节点运行的是大小为 %4 的 EP 组（%5）；矩阵的大小须等于一个 EP 组或整个世界的 rank 数</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a rate (a number and bit, kbit, mbit, gbit, tbit, bps, kbps, mbps or gbps, e.g. 200mbit)</source>
        <translation>“%1”不是速率（数字加 bit、kbit、mbit、gbit、tbit、bps、kbps、mbps 或 gbps，例如 200mbit）</translation>
    </message>
    <message>
        <source>rate %1 is below 64kbit; the probe would not finish</source>
        <translation>速率 %1 低于 64kbit；探针将无法完成</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a burst size (a number and b, kb, mb or gb, e.g. 64kb)</source>
        <translation>“%1”不是突发大小（数字加 b、kb、mb 或 gb，例如 64kb）</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>shaping a local cluster (--netns-rate) needs root: network namespaces, veth pairs and tc qdiscs can only be made by root (running as uid %1)</source>
        <translation>对本地集群限速（--netns-rate）需要 root：网络命名空间、veth 对和 tc 队列规则只能由 root 创建（当前以 uid %1 运行）</translation>
    </message>
    <message>
        <source>shaping a local cluster (--netns-rate) needs the program ip (iproute2); not found</source>
        <translation>对本地集群限速（--netns-rate）需要程序 ip（iproute2）；未找到</translation>
    </message>
    <message>
        <source>shaping a local cluster (--netns-rate) needs the program tc (iproute2); not found</source>
        <translation>对本地集群限速（--netns-rate）需要程序 tc（iproute2）；未找到</translation>
    </message>
    <message>
        <source>a shaped local cluster has 1 to 250 ranks, not %1</source>
        <translation>限速的本地集群有 1 到 250 个 rank，而不是 %1</translation>
    </message>
    <message>
        <source>%1 %2 failed: %3</source>
        <translation>%1 %2 失败：%3</translation>
    </message>
    <message>
        <source>cannot open the network namespace %1: %2</source>
        <translation>无法打开网络命名空间 %1：%2</translation>
    </message>
    <message>
        <source>cannot make a pipe: %1</source>
        <translation>无法创建管道：%1</translation>
    </message>
    <message>
        <source>cannot start a process: %1</source>
        <translation>无法启动进程：%1</translation>
    </message>
    <message>
        <source>%1: cannot read the probe bundle&apos;s manifest</source>
        <translation>%1：无法读取探针包的清单</translation>
    </message>
    <message>
        <source>%1: no sha256 of moe-probe in &quot;files&quot;</source>
        <translation>%1：“files”中没有 moe-probe 的 sha256</translation>
    </message>
    <message>
        <source>%1 is a symbolic link; refusing to run it</source>
        <translation>%1 是符号链接；拒绝运行</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a regular file; refusing to run it</source>
        <translation>%1 不是普通文件；拒绝运行</translation>
    </message>
    <message>
        <source>%1 is owned by uid %2, not by you (uid %3) or root; refusing to run it</source>
        <translation>%1 属于 uid %2，而不属于你（uid %3）或 root；拒绝运行</translation>
    </message>
    <message>
        <source>%1 is writable by group or others; refusing to run it</source>
        <translation>%1 可被组或其他用户写入；拒绝运行</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 does not match the bundle&apos;s manifest (sha256 %2, expected %3); refusing to run it</source>
        <translation>%1 与探针包清单不符（sha256 %2，应为 %3）；拒绝运行</translation>
    </message>
    <message>
        <source>moe-probe --inventory %1%2</source>
        <translation>moe-probe --inventory %1%2</translation>
    </message>
    <message>
        <source>printed no JSON object</source>
        <translation>没有输出 JSON 对象</translation>
    </message>
    <message>
        <source>cluster %1 is this computer (cluster add --local): it runs with launcher local, not %2</source>
        <translation>集群 %1 是本机（cluster add --local）：它以启动器 local 运行，而不是 %2</translation>
    </message>
    <message>
        <source>launcher local runs a cluster of this computer (moewb cluster add %1 --local --ranks N); %1 has remote nodes</source>
        <translation>启动器 local 只运行本机集群（moewb cluster add %1 --local --ranks N）；%1 有远程节点</translation>
    </message>
    <message>
        <source>launcher local: no ranks (give node counts or a local cluster)</source>
        <translation>启动器 local：没有 rank（请给出节点数或本地集群）</translation>
    </message>
    <message>
        <source>netns rate: %1</source>
        <translation>命名空间速率：%1</translation>
    </message>
    <message>
        <source>netns burst: %1</source>
        <translation>命名空间突发：%1</translation>
    </message>
    <message>
        <source>removed network namespaces left by an earlier run: %1</source>
        <translation>已删除先前运行遗留的网络命名空间：%1</translation>
    </message>
    <message>
        <source>this computer: %1/moe-probe (sha256 %2, as in the bundle&apos;s manifest)</source>
        <translation>本机：%1/moe-probe（sha256 %2，与探针包清单一致）</translation>
    </message>
    <message>
        <source>cannot make a private folder in %1 for the probe&apos;s report</source>
        <translation>无法在 %1 中为探针报告创建私有文件夹</translation>
    </message>
    <message>
        <source>making %1 network namespaces (%2, burst %3)</source>
        <translation>正在创建 %1 个网络命名空间（%2，突发 %3）</translation>
    </message>
    <message>
        <source>network namespaces %1: each rank&apos;s link shaped to %2 (tc tbf, burst %3)</source>
        <translation>网络命名空间 %1：每个 rank 的链路限速为 %2（tc tbf，突发 %3）</translation>
    </message>
    <message>
        <source>%1: moe-probe (rank %2) ran past %3 s and was stopped</source>
        <translation>%1：moe-probe（rank %2）运行超过 %3 秒，已被停止</translation>
    </message>
    <message>
        <source>%1: cannot read the report %2 (not a plain file, or larger than %3 MiB)</source>
        <translation>%1：无法读取报告 %2（不是普通文件，或大于 %3 MiB）</translation>
    </message>
    <message>
        <source>the cluster name is empty</source>
        <translation>集群名称为空</translation>
    </message>
    <message>
        <source>a cluster named %1 already exists</source>
        <translation>名为 %1 的集群已存在</translation>
    </message>
    <message>
        <source>give the ranks, a whole number from %1 to %2</source>
        <translation>请给出 rank 数,%1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2, not &quot;%3&quot;</source>
        <translation>必须是 %1 到 %2 之间的整数,而不是“%3”</translation>
    </message>
    <message>
        <source>a burst goes with a rate: give the network namespace rate too</source>
        <translation>突发量需配合速率使用:请同时给出网络命名空间的速率</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: %2</source>
        <translation>“%1”:%2</translation>
    </message>
    <message>
        <source>%1 is listed twice</source>
        <translation>%1 列出了两次</translation>
    </message>
    <message>
        <source>give at least one node: an ~/.ssh/config alias or [user@]host[:port]</source>
        <translation>请至少给出一个节点:~/.ssh/config 中的别名或 [user@]host[:port]</translation>
    </message>
    <message>
        <source>must be a whole number &gt;= 0, not &quot;%1&quot;</source>
        <translation>必须是 &gt;= 0 的整数,而不是“%1”</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1:没有这个文件</translation>
    </message>
    <message>
        <source>%1: %2 failed</source>
        <translation>%1：%2 失败</translation>
    </message>
    <message>
        <source>%1: %2 exited with status %3%4</source>
        <translation>%1：%2 以状态 %3 退出%4</translation>
    </message>
    <message>
        <source>the listing is larger than %1 MiB</source>
        <translation>列表大于 %1 MiB</translation>
    </message>
    <message>
        <source>the listing ends early (no end line)</source>
        <translation>列表提前结束（没有结束行）</translation>
    </message>
    <message>
        <source>not a moe-digest-list/1 listing</source>
        <translation>不是 moe-digest-list/1 列表</translation>
    </message>
    <message>
        <source>text after the listing&apos;s end line</source>
        <translation>列表结束行之后还有内容</translation>
    </message>
    <message>
        <source>the listing&apos;s end line does not match its files</source>
        <translation>列表结束行与其文件数不符</translation>
    </message>
    <message>
        <source>a malformed line in the listing</source>
        <translation>列表中有一行格式错误</translation>
    </message>
    <message>
        <source>the cluster has no nodes</source>
        <translation>该集群没有节点</translation>
    </message>
    <message>
        <source>the traces&apos; folder on the cluster must be an absolute path, not &quot;%1&quot;</source>
        <translation>集群上的 trace 文件夹必须是绝对路径，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>the probe bundle %1 has no moe-digest; build the target moe-probe-bundle</source>
        <translation>probe 包 %1 中没有 moe-digest；请构建目标 moe-probe-bundle</translation>
    </message>
    <message>
        <source>listing the traces in %1</source>
        <translation>正在列出 %1 中的 trace</translation>
    </message>
    <message>
        <source>%1: moe-digest --list %2: %3</source>
        <translation>%1：moe-digest --list %2：%3</translation>
    </message>
    <message>
        <source>%1: no profiler trace under %2</source>
        <translation>%1：%2 下没有 profiler trace</translation>
    </message>
    <message numerus="yes">
        <source>digesting %n trace file(s), %1 MB</source>
        <translation>
            <numerusform>正在摘要 %n 个 trace 文件，%1 MB</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: moe-digest answered for %2 of %3 files</source>
        <translation>%1：moe-digest 只回答了 %3 个文件中的 %2 个</translation>
    </message>
    <message>
        <source>%1: moe-digest answered for %2 where %3 was asked</source>
        <translation>%1：请求的是 %3，moe-digest 却回答了 %2</translation>
    </message>
    <message>
        <source>digested</source>
        <translation>摘要完成</translation>
    </message>
</context>
<context>
    <name>RemoteSsh</name>
    <message>
        <source>invalid node address &apos;%1&apos;: %2</source>
        <translation>无效的节点地址“%1”：%2</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <source>empty user name</source>
        <translation>用户名为空</translation>
    </message>
    <message>
        <source>bad character in user name</source>
        <translation>用户名含无效字符</translation>
    </message>
    <message>
        <source>missing &apos;]&apos;</source>
        <translation>缺少“]”</translation>
    </message>
    <message>
        <source>brackets are for IPv6 addresses</source>
        <translation>方括号只用于 IPv6 地址</translation>
    </message>
    <message>
        <source>bad character in IPv6 address</source>
        <translation>IPv6 地址含无效字符</translation>
    </message>
    <message>
        <source>bad port</source>
        <translation>端口无效</translation>
    </message>
    <message>
        <source>IPv6 addresses must be written in brackets, e.g. [::1]:22</source>
        <translation>IPv6 地址必须写在方括号内，例如 [::1]:22</translation>
    </message>
    <message>
        <source>bad character in host name</source>
        <translation>主机名含无效字符</translation>
    </message>
    <message>
        <source>empty host</source>
        <translation>主机为空</translation>
    </message>
    <message>
        <source>host may not start with &apos;-&apos;</source>
        <translation>主机名不能以“-”开头</translation>
    </message>
    <message>
        <source>(unknown fingerprint)</source>
        <translation>（未知指纹）</translation>
    </message>
    <message>
        <source>%1: could not read the host key: %2</source>
        <translation>%1：无法读取主机密钥：%2</translation>
    </message>
    <message>
        <source>(an entry in %1)</source>
        <translation>（%1 中的一个条目）</translation>
    </message>
    <message>
        <source>WARNING: the host key of %1 (%2) has CHANGED -- refusing to connect. known_hosts (%3) has %4; the node offers %5 (%6). This may be a reinstalled node or a man-in-the-middle attack; remove the old entry only once you have checked the new fingerprint.</source>
        <translation>警告：%1（%2）的主机密钥已变更——拒绝连接。known_hosts（%3）中记录的是 %4；节点提供的是 %5（%6）。这可能是重装过的节点，也可能是中间人攻击；请先核对新指纹，再删除旧条目。</translation>
    </message>
    <message>
        <source>%1: unknown host key %2 (%3), not in %4; refused (accept it interactively or with --accept-new-host-keys)</source>
        <translation>%1：未知主机密钥 %2（%3），不在 %4 中；已拒绝（请交互确认接受，或使用 --accept-new-host-keys）</translation>
    </message>
    <message>
        <source>%1: could not write %2: %3</source>
        <translation>%1：无法写入 %2：%3</translation>
    </message>
    <message>
        <source>%1: could not check the host key against %2: %3</source>
        <translation>%1：无法对照 %2 检查主机密钥：%3</translation>
    </message>
    <message>
        <source>cannot create a channel</source>
        <translation>无法创建通道</translation>
    </message>
    <message>
        <source>cannot open a channel</source>
        <translation>无法打开通道</translation>
    </message>
    <message>
        <source>cannot start the command</source>
        <translation>无法启动命令</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; timed out after %3 ms</source>
        <translation>%1：“%2”在 %3 ms 后超时</translation>
    </message>
    <message>
        <source>reading &apos;%1&apos;</source>
        <translation>读取“%1”的输出时出错</translation>
    </message>
    <message>
        <source>%1: no process group to kill</source>
        <translation>%1：没有可终止的进程组</translation>
    </message>
    <message>
        <source>%1: empty command</source>
        <translation>%1：命令为空</translation>
    </message>
    <message>
        <source>reading from &apos;%1&apos;</source>
        <translation>从“%1”读取时出错</translation>
    </message>
    <message>
        <source> (the remote process group %1 may still be running)</source>
        <translation>（远程进程组 %1 可能仍在运行）</translation>
    </message>
    <message>
        <source> (the node did not confirm that the command ended; it may still be running)</source>
        <translation>（节点未确认命令已结束；它可能仍在运行）</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; cancelled%3</source>
        <translation>%1：“%2”已取消%3</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; timed out after %3 ms%4</source>
        <translation>%1：“%2”在 %3 ms 后超时%4</translation>
    </message>
    <message>
        <source> (sftp status %1)</source>
        <translation>（SFTP 状态 %1）</translation>
    </message>
    <message>
        <source>cannot start SFTP</source>
        <translation>无法启动 SFTP</translation>
    </message>
    <message>
        <source>cannot read %1</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <source>%1: cannot read %2: %3</source>
        <translation>%1：无法读取 %2：%3</translation>
    </message>
    <message>
        <source>%1: cannot read %2</source>
        <translation>%1：无法读取 %2</translation>
    </message>
    <message>
        <source>cannot resolve the home directory</source>
        <translation>无法解析主目录</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>%1: upload of %2 cancelled</source>
        <translation>%1：%2 的上传已取消</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>%1: uploaded %2 does not match: sha256 %3 on the node, %4 here</source>
        <translation>%1：已上传的 %2 不一致：节点上 sha256 为 %3，本地为 %4</translation>
    </message>
    <message>
        <source>cannot rename %1 to %2</source>
        <translation>无法将 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>%1: no host given</source>
        <translation>%1：未指定主机</translation>
    </message>
    <message>
        <source>%1: could not create an SSH session</source>
        <translation>%1：无法创建 SSH 会话</translation>
    </message>
    <message>
        <source>bad host</source>
        <translation>主机无效</translation>
    </message>
    <message>
        <source>bad user</source>
        <translation>用户无效</translation>
    </message>
    <message>
        <source>bad ssh directory</source>
        <translation>ssh 目录无效</translation>
    </message>
    <message>
        <source>bad known_hosts path</source>
        <translation>known_hosts 路径无效</translation>
    </message>
    <message>
        <source>bad ssh configuration</source>
        <translation>ssh 配置无效</translation>
    </message>
    <message>
        <source>bad ProxyJump</source>
        <translation>ProxyJump 无效</translation>
    </message>
    <message>
        <source> (through ProxyJump %1%2)</source>
        <translation>（经由 ProxyJump %1%2）</translation>
    </message>
    <message>
        <source>%1: cannot connect (%2 ms timeout): %3%4</source>
        <translation>%1：无法连接（超时 %2 ms）：%3%4</translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>%1: authentication refused for user &apos;%2&apos; (tried ssh-agent and key files%3)</source>
        <translation>%1：用户“%2”的认证被拒绝（已尝试 ssh-agent 和密钥文件%3）</translation>
    </message>
    <message>
        <source>; a passphrase was asked</source>
        <translation>；已询问过密码短语</translation>
    </message>
    <message>
        <source>%1: SSH session used from another thread (sessions belong to the thread that opened them)</source>
        <translation>%1：在另一个线程中使用了 SSH 会话（会话属于打开它的线程）</translation>
    </message>
    <message>
        <source>%1: connecting cancelled</source>
        <translation>%1：连接已取消</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: cannot learn the user id on the node (id -u: %2)</source>
        <translation>%1：无法获取节点上的用户 ID（id -u：%2）</translation>
    </message>
    <message>
        <source>%1 is a symbolic link; the cache follows none</source>
        <translation>%1 是符号链接；缓存不跟随任何符号链接</translation>
    </message>
    <message>
        <source>%1 exists and is not a directory</source>
        <translation>%1 已存在且不是目录</translation>
    </message>
    <message>
        <source>%1 is not a regular file</source>
        <translation>%1 不是普通文件</translation>
    </message>
    <message>
        <source>%1 is owned by uid %2, not by you (uid %3)</source>
        <translation>%1 的属主是 uid %2，而不是你（uid %3）</translation>
    </message>
    <message>
        <source>%1 is writable by group or others (mode %2)</source>
        <translation>%1 可被同组或其他用户写入（权限 %2）</translation>
    </message>
    <message>
        <source>cannot inspect the home directory %1</source>
        <translation>无法检查主目录 %1</translation>
    </message>
    <message>
        <source>the home directory %1 is not a directory</source>
        <translation>主目录 %1 不是目录</translation>
    </message>
    <message>
        <source>the home directory %1 is owned by uid %2, not by you (uid %3)</source>
        <translation>主目录 %1 的属主是 uid %2，而不是你（uid %3）</translation>
    </message>
    <message>
        <source>the home directory %1 is writable by group or others (mode %2)</source>
        <translation>主目录 %1 可被同组或其他用户写入（权限 %2）</translation>
    </message>
    <message>
        <source>cannot inspect %1</source>
        <translation>无法检查 %1</translation>
    </message>
    <message>
        <source>; refusing to use it</source>
        <translation>；拒绝使用</translation>
    </message>
    <message>
        <source>cannot make %1 private (mode 0700)</source>
        <translation>无法将 %1 设为私有（权限 0700）</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a plain file name</source>
        <translation>%1：“%2”不是单纯的文件名</translation>
    </message>
    <message>
        <source>; refusing to read it</source>
        <translation>；拒绝读取</translation>
    </message>
    <message>
        <source>%1 is %2 bytes, more than the %3 bytes allowed</source>
        <translation>%1 有 %2 字节，超过允许的 %3 字节</translation>
    </message>
    <message>
        <source>%1 is a symbolic link; refusing to run it</source>
        <translation>%1 是符号链接；拒绝运行</translation>
    </message>
    <message>
        <source>%1 is not a regular file; refusing to run it</source>
        <translation>%1 不是普通文件；拒绝运行</translation>
    </message>
    <message>
        <source>cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>no /proc/self/fd on this node: %1 cannot be run from the descriptor it is checked on</source>
        <translation>此节点没有 /proc/self/fd：无法从检查过的文件描述符运行 %1</translation>
    </message>
    <message>
        <source>%1 is owned by uid %2, not by you (uid %3); refusing to run it</source>
        <translation>%1 的属主是 uid %2，而不是你（uid %3）；拒绝运行</translation>
    </message>
    <message>
        <source>%1 is writable by group or others (%2); refusing to run it</source>
        <translation>%1 可被同组或其他用户写入（%2）；拒绝运行</translation>
    </message>
    <message>
        <source>neither sha256sum nor openssl on this node: cannot verify %1</source>
        <translation>此节点既没有 sha256sum 也没有 openssl：无法校验 %1</translation>
    </message>
    <message>
        <source>%1 is not the probe uploaded (sha256 %2, expected %3); refusing to run it</source>
        <translation>%1 不是已上传的探针（sha256 为 %2，应为 %3）；拒绝运行</translation>
    </message>
    <message>
        <source>cannot make %1 read-only</source>
        <translation>无法将 %1 设为只读</translation>
    </message>
    <message>
        <source>moewb: no ssh-agent holds this key. %1 </source>
        <translation>moewb：没有 ssh-agent 持有此密钥。%1 </translation>
    </message>
    <message>
        <source>Passphrase:</source>
        <translation>密码短语：</translation>
    </message>
    <message>
        <source>; a key needs its passphrase and there is no terminal to ask it on: add the key to ssh-agent (ssh-add) and try again</source>
        <translation>；密钥需要密码短语，但没有可用于询问的终端：请将密钥加入 ssh-agent（ssh-add）后重试</translation>
    </message>
    <message>
        <source>%1: reading %2 ran past %3 ms (%4 of %5 bytes read)</source>
        <translation>%1：读取 %2 超过 %3 毫秒（已读 %4 / %5 字节）</translation>
    </message>
    <message>
        <source>%1: upload of %2 ran past %3 ms (%4 of %5 bytes written)</source>
        <translation>%1：上传 %2 超过 %3 毫秒（已写 %4 / %5 字节）</translation>
    </message>
</context>
</TS>
