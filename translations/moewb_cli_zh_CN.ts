<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Cli</name>
    <message>
        <source>takes no arguments</source>
        <translation>不接受参数</translation>
    </message>
    <message>
        <source>No misjudgment warnings.</source>
        <translation>没有误判警告。</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s):</source>
        <translation>
            <numerusform>%n 条警告：</numerusform>
        </translation>
    </message>
    <message>
        <source>⚠ %1. %2</source>
        <translation>⚠ 误判 %1：%2</translation>
    </message>
    <message>
        <source>   Fix: %1</source>
        <translation>   纠正方法：%1</translation>
    </message>
    <message>
        <source>the misjudgment warnings, each with its fix (exit 0: warnings are not failures)</source>
        <translation>列出误判警告及各自的纠正方法（退出码为 0：警告不算失败）</translation>
    </message>
    <message>
        <source>moewb: no project file at %1; create it with: moewb init %1</source>
        <translation>moewb: %1 处没有项目文件；可用以下命令创建：moewb init %1</translation>
    </message>
    <message>
        <source>moewb: %1</source>
        <translation>moewb: %1</translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation>显示本帮助。</translation>
    </message>
    <message>
        <source>Usage: moewb [--project FILE] [--json] %1 %2</source>
        <translation>用法：moewb [--project FILE] [--json] %1 %2</translation>
    </message>
    <message>
        <source>moewb %1: %2</source>
        <translation>moewb %1: %2</translation>
    </message>
    <message>
        <source>Try: moewb %1 --help</source>
        <translation>查看帮助：moewb %1 --help</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>a node: ~/.ssh/config alias or [user@]host[:port]; comma-separated or repeated</source>
        <translation>一个节点：~/.ssh/config 中的别名或 [user@]host[:port]；多个节点用逗号分隔，或重复此选项</translation>
    </message>
    <message>
        <source>accelerators per node (default 0: from the inventory)</source>
        <translation>每节点加速卡数（默认 0：取自节点清单）</translation>
    </message>
    <message>
        <source>SSH private key for these nodes</source>
        <translation>这些节点使用的 SSH 私钥</translation>
    </message>
    <message>
        <source>connect to every node first and store its inventory (as cluster check)</source>
        <translation>先连接每个节点并保存其清单（同 cluster check）</translation>
    </message>
    <message>
        <source>with --check: trust and record unknown host keys</source>
        <translation>与 --check 同用：信任并记录未知的主机密钥</translation>
    </message>
    <message>
        <source>needs exactly one cluster name</source>
        <translation>需要且只需要一个集群名称</translation>
    </message>
    <message>
        <source>%1: a cluster named %2 already exists</source>
        <translation>%1：已存在名为 %2 的集群</translation>
    </message>
    <message>
        <source>cluster %1 not added: not every node could be checked</source>
        <translation>未添加集群 %1：有节点未能完成检查</translation>
    </message>
    <message numerus="yes">
        <source>Added cluster %1 with %n node(s) to %2.</source>
        <translation>
            <numerusform>已将集群 %1（%n 个节点）添加到 %2。</numerusform>
        </translation>
    </message>
    <message>
        <source>trust unknown host keys and record them in ~/.ssh/known_hosts (default: refuse them)</source>
        <translation>信任未知的主机密钥并记录到 ~/.ssh/known_hosts（默认：拒绝）</translation>
    </message>
    <message>
        <source>seconds per connection (default 10)</source>
        <translation>每次连接的超时秒数（默认 10）</translation>
    </message>
    <message>
        <source>the probe bundle directory</source>
        <translation>探针包所在目录</translation>
    </message>
    <message>
        <source>--connect-timeout must be a whole number of seconds &gt;= 1</source>
        <translation>--connect-timeout 必须是 &gt;= 1 的整数秒数</translation>
    </message>
    <message>
        <source>%1: no cluster named %2</source>
        <translation>%1：没有名为 %2 的集群</translation>
    </message>
    <message>
        <source>cluster %1: bad node address &quot;%2&quot;: %3</source>
        <translation>集群 %1：节点地址 &quot;%2&quot; 无效：%3</translation>
    </message>
    <message>
        <source>NODE</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>STATUS</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>HOSTNAME</source>
        <translation>主机名</translation>
    </message>
    <message>
        <source>GPUS</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>NCCL</source>
        <translation>NCCL</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>No clusters in %1.</source>
        <translation>%1 中没有集群。</translation>
    </message>
    <message>
        <source>CLUSTER</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>NODES</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>GPUS/NODE</source>
        <translation>GPU/节点</translation>
    </message>
    <message>
        <source>ADDRESSES</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>the clusters of the project</source>
        <translation>列出项目中的集群</translation>
    </message>
    <message>
        <source>where to write it (default: --project when given, else %1)</source>
        <translation>写入位置（默认：给出 --project 时用其值，否则为 %1）</translation>
    </message>
    <message>
        <source>replace an existing file</source>
        <translation>覆盖已有文件</translation>
    </message>
    <message>
        <source>takes no arguments; the path goes after -o</source>
        <translation>不接受参数；路径应写在 -o 之后</translation>
    </message>
    <message>
        <source>-o needs a file name</source>
        <translation>-o 需要一个文件名</translation>
    </message>
    <message>
        <source>Wrote the demo project (synthetic data, %1 ms). Next: moewb --project %2 stage 1</source>
        <translation>已写入演示项目（合成数据，耗时 %1 ms）。下一步：moewb --project %2 stage 1</translation>
    </message>
    <message>
        <source>write the synthetic demo project and print its path</source>
        <translation>写入使用合成数据的演示项目并打印其路径</translation>
    </message>
    <message>
        <source>no config record named &quot;%1&quot;; the project has none yet (add one with: moewb record add FILE)</source>
        <translation>没有名为 &quot;%1&quot; 的配置记录；项目中还没有任何配置记录（可用 moewb record add FILE 添加）</translation>
    </message>
    <message>
        <source>no config record named &quot;%1&quot;; the project has: %2</source>
        <translation>没有名为 &quot;%1&quot; 的配置记录；项目中现有：%2</translation>
    </message>
    <message>
        <source>every run belongs to a config record and the project has none; add one with: moewb record add FILE</source>
        <translation>每个运行都必须属于一条配置记录，而项目中还没有；可用以下命令添加：moewb record add FILE</translation>
    </message>
    <message>
        <source>the project has %1 config records (%2); choose one with --record NAME</source>
        <translation>项目中有 %1 条配置记录（%2）；请用 --record NAME 选择其一</translation>
    </message>
    <message>
        <source>the config record the runs belong to (default: the project&apos;s only record)</source>
        <translation>运行所属的配置记录（默认：项目中唯一的一条）</translation>
    </message>
    <message>
        <source>unknown format &quot;%1&quot;; known formats: %2</source>
        <translation>未知格式 &quot;%1&quot;；支持的格式：%2</translation>
    </message>
    <message>
        <source>--run needs a name</source>
        <translation>--run 需要一个名称</translation>
    </message>
    <message>
        <source>a run named &quot;%1&quot; already exists in %2</source>
        <translation>%2 中已存在名为 &quot;%1&quot; 的运行</translation>
    </message>
    <message>
        <source>moewb: nothing stored.</source>
        <translation>moewb: 未保存任何内容。</translation>
    </message>
    <message>
        <source>moewb: %1: %2</source>
        <translation>moewb: %1: %2</translation>
    </message>
    <message>
        <source>moewb: stored before the failure, each complete: %1</source>
        <translation>moewb: 失败前已完整保存：%1</translation>
    </message>
    <message numerus="yes">
        <source>Imported %1 as run &quot;%2&quot; (%3, %n data row(s): %4 communication samples, %5 step metrics, %6 expert-load blocks; record &quot;%7&quot;).</source>
        <translation>
            <numerusform>已将 %1 导入为运行 &quot;%2&quot;（%3，%n 行数据：%4 条通信样本、%5 条步指标、%6 个专家负载块；配置记录 &quot;%7&quot;）。</numerusform>
        </translation>
    </message>
    <message>
        <source>import probe JSON, nccl-tests, Megatron, TensorBoard, CSV/JSONL files as runs (docs/formats.md)</source>
        <translation>将探针 JSON、nccl-tests、Megatron、TensorBoard、CSV/JSONL 文件导入为运行（docs/formats.md）</translation>
    </message>
    <message>
        <source>the project file to create (default: --project, else the default project)</source>
        <translation>要创建的项目文件（默认：--project 的值，否则为默认项目）</translation>
    </message>
    <message>
        <source>expects at most one FILE, got %1</source>
        <translation>最多接受一个 FILE，实际给出 %1 个</translation>
    </message>
    <message>
        <source>%1 already exists; init never overwrites a file</source>
        <translation>%1 已存在；init 从不覆盖文件</translation>
    </message>
    <message>
        <source>Created project %1 (schema %2).</source>
        <translation>已创建项目 %1（格式版本 %2）。</translation>
    </message>
    <message>
        <source>create a project file</source>
        <translation>创建项目文件</translation>
    </message>
    <message>
        <source>Top-K</source>
        <translation>Top-K</translation>
    </message>
    <message>
        <source>Expert-Choice</source>
        <translation>Expert-Choice</translation>
    </message>
    <message>
        <source>Sigmoid + bias</source>
        <translation>Sigmoid + 偏置</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>MaxVio</source>
        <translation>MaxVio</translation>
    </message>
    <message>
        <source>dropped assignments</source>
        <translation>丢弃的分配</translation>
    </message>
    <message>
        <source>tokens without expert</source>
        <translation>未分到专家的 token</translation>
    </message>
    <message>
        <source>entropy (bits)</source>
        <translation>熵（bit）</translation>
    </message>
    <message>
        <source>routing time</source>
        <translation>路由耗时</translation>
    </message>
    <message>
        <source>per token (ns)</source>
        <translation>每 token（ns）</translation>
    </message>
    <message>
        <source>routed experts E (default 8)</source>
        <translation>路由专家数 E（默认 8）</translation>
    </message>
    <message>
        <source>tokens T (default 262144)</source>
        <translation>token 数 T（默认 262144）</translation>
    </message>
    <message>
        <source>experts per token K (default 2)</source>
        <translation>每个 token 选择的专家数 K（默认 2）</translation>
    </message>
    <message>
        <source>capacity = factor × K×T/E (default 1.12)</source>
        <translation>容量 = 因子 × K×T/E（默认 1.12）</translation>
    </message>
    <message>
        <source>uniform, preferential or zipf:S (default uniform)</source>
        <translation>uniform、preferential 或 zipf:S（默认 uniform）</translation>
    </message>
    <message>
        <source>topk, expert-choice, sigmoid-bias or all (default all)</source>
        <translation>topk、expert-choice、sigmoid-bias 或 all（默认 all）</translation>
    </message>
    <message>
        <source>random seed (default 1)</source>
        <translation>随机种子（默认 1）</translation>
    </message>
    <message>
        <source>also sweep E = 4, 8, …, 256</source>
        <translation>另外扫描 E = 4, 8, …, 256</translation>
    </message>
    <message>
        <source>sigmoid-bias update rate u (default 0.001)</source>
        <translation>sigmoid-bias 的偏置更新率 u（默认 0.001）</translation>
    </message>
    <message>
        <source>batches the tokens are cut into for the bias (default 16)</source>
        <translation>更新偏置时把 token 切分成的批数（默认 16）</translation>
    </message>
    <message>
        <source>bias updates, one per batch (default 512)</source>
        <translation>偏置更新次数，每批一次（默认 512）</translation>
    </message>
    <message>
        <source>takes no positional arguments</source>
        <translation>不接受位置参数</translation>
    </message>
    <message>
        <source>--experts, --tokens, --top-k, --bias-batches and --bias-iterations take whole numbers</source>
        <translation>--experts、--tokens、--top-k、--bias-batches 和 --bias-iterations 只接受整数</translation>
    </message>
    <message>
        <source>--seed takes a non-negative whole number</source>
        <translation>--seed 只接受非负整数</translation>
    </message>
    <message>
        <source>--capacity-factor and --bias-rate take numbers</source>
        <translation>--capacity-factor 和 --bias-rate 只接受数字</translation>
    </message>
    <message>
        <source>--scores takes uniform, preferential or zipf:S with S &gt; 0</source>
        <translation>--scores 只接受 uniform、preferential 或 zipf:S（S &gt; 0）</translation>
    </message>
    <message>
        <source>--router takes topk, expert-choice, sigmoid-bias or all</source>
        <translation>--router 只接受 topk、expert-choice、sigmoid-bias 或 all</translation>
    </message>
    <message>
        <source>E = %1 experts, T = %2 tokens, top-%3, capacity factor %4, scores %5, seed %6
</source>
        <translation>E = %1 个专家，T = %2 个 token，top-%3，容量因子 %4，打分方式 %5，种子 %6
</translation>
    </message>
    <message>
        <source>Target load K×T/E = %1 assignments per expert; capacity = %2 per expert.

</source>
        <translation>目标负载 K×T/E = 每个专家 %1 次分配；容量 = 每个专家 %2 次。

</translation>
    </message>
    <message>
        <source>Sigmoid + bias: MaxVio per bias iteration (batches of %1 tokens, u = %2):
</source>
        <translation>Sigmoid + 偏置：每次偏置迭代后的 MaxVio（每批 %1 个 token，u = %2）：
</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Sweep over the expert count (same T, K, factor, scores and seed):
</source>
        <translation>专家数扫描（T、K、容量因子、打分方式和种子保持不变）：
</translation>
    </message>
    <message>
        <source>the config record&apos;s name in the project</source>
        <translation>项目中配置记录的名称</translation>
    </message>
    <message>
        <source>the stage 1 run whose curve to use (default: the one matching EP)</source>
        <translation>使用哪个阶段 1 运行的曲线（默认：与 EP 匹配的那个）</translation>
    </message>
    <message>
        <source>achieved TFLOP/s per device, for the compute estimate</source>
        <translation>每设备实际达到的 TFLOP/s，用于估算计算时间</translation>
    </message>
    <message>
        <source>bytes per parameter (default 2, bf16)</source>
        <translation>每个参数的字节数（默认 2，bf16）</translation>
    </message>
    <message>
        <source>bytes per gradient (default 2, bf16)</source>
        <translation>每个梯度的字节数（默认 2，bf16）</translation>
    </message>
    <message>
        <source>bytes per master weight (default 4, fp32; 0 for none)</source>
        <translation>每个主权重的字节数（默认 4，fp32；0 表示没有主权重）</translation>
    </message>
    <message>
        <source>optimizer-state bytes per parameter (default 8, Adam m+v fp32)</source>
        <translation>每个参数的优化器状态字节数（默认 8，Adam m+v fp32）</translation>
    </message>
    <message>
        <source>bytes per hidden element sent by the all-to-all (default 2)</source>
        <translation>all-to-all 发送的每个隐藏维元素的字节数（默认 2）</translation>
    </message>
    <message>
        <source>weight matrices per FFN: 3 SwiGLU (default), 2 plain</source>
        <translation>每个 FFN 的权重矩阵数：3 为 SwiGLU（默认），2 为普通 FFN</translation>
    </message>
    <message>
        <source>sequences per micro-batch (default 1)</source>
        <translation>每个 micro-batch 的序列数（默认 1）</translation>
    </message>
    <message>
        <source>shard master weights and optimizer state over data parallel</source>
        <translation>在数据并行维度上切分主权重和优化器状态</translation>
    </message>
    <message>
        <source>expects --record NAME</source>
        <translation>需要 --record NAME</translation>
    </message>
    <message>
        <source>byte sizes take non-negative numbers, --ffn-matrices 2 or 3, --micro-batch a whole number ≥ 1, --achieved-tflops a positive number</source>
        <translation>字节数须为非负数，--ffn-matrices 须为 2 或 3，--micro-batch 须为 ≥ 1 的整数，--achieved-tflops 须为正数</translation>
    </message>
    <message>
        <source>no config record named &quot;%1&quot; in the project</source>
        <translation>项目中没有名为 &quot;%1&quot; 的配置记录</translation>
    </message>
    <message>
        <source>cannot compute the costs of &quot;%1&quot;: %2</source>
        <translation>无法计算 &quot;%1&quot; 的成本：%2</translation>
    </message>
    <message>
        <source>The step-time estimate needs a stage 1 baseline: run `moewb run stage1` or import probe results with communication samples.</source>
        <translation>估算步时间需要阶段 1 基线：请运行 `moewb run stage1`，或导入含通信样本的探针结果。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Costs of &quot;%1&quot; (docs/costs.md explains each line)

</source>
        <translation>&quot;%1&quot; 的成本（各行含义见 docs/costs.md）

</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式计算</translation>
    </message>
    <message>
        <source>record</source>
        <translation>配置记录值</translation>
    </message>
    <message>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>activated per token</source>
        <translation>每 token 激活</translation>
    </message>
    <message>
        <source>attention per layer</source>
        <translation>每层注意力</translation>
    </message>
    <message>
        <source>one expert</source>
        <translation>单个专家</translation>
    </message>
    <message>
        <source>all routed experts</source>
        <translation>全部路由专家</translation>
    </message>
    <message>
        <source>other (embeddings, head, norms)</source>
        <translation>其他（嵌入层、输出头、归一化层）</translation>
    </message>
    <message>
        <source>memory per device</source>
        <translation>每设备显存</translation>
    </message>
    <message>
        <source>size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>parameters held (%1 dense + %2 expert)</source>
        <translation>持有的参数（%1 稠密 + %2 专家）</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>total (activations not included)</source>
        <translation>总计（不含激活值）</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>all-to-all</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>share of assignments leaving the device</source>
        <translation>发往其他设备的分配占比</translation>
    </message>
    <message>
        <source>per token per layer, one dispatch</source>
        <translation>每 token 每层，一次分发</translation>
    </message>
    <message>
        <source>per token per layer, fwd+bwd dispatch+combine</source>
        <translation>每 token 每层，前向+反向的分发+合并</translation>
    </message>
    <message>
        <source>per device per step</source>
        <translation>每设备每步</translation>
    </message>
    <message>
        <source>one call, bytes per rank</source>
        <translation>单次调用，每 rank 字节数</translation>
    </message>
    <message>
        <source>calls per step</source>
        <translation>每步调用次数</translation>
    </message>
    <message>
        <source>step time (per device)</source>
        <translation>步时间（每设备）</translation>
    </message>
    <message>
        <source>estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>one all-to-all call</source>
        <translation>单次 all-to-all 调用</translation>
    </message>
    <message>
        <source> (extrapolated)</source>
        <translation>（外推）</translation>
    </message>
    <message>
        <source>all-to-all per step</source>
        <translation>每步 all-to-all</translation>
    </message>
    <message>
        <source>compute per step</source>
        <translation>每步计算</translation>
    </message>
    <message>
        <source>total, no overlap</source>
        <translation>总计（不计重叠）</translation>
    </message>
    <message>
        <source>All-to-all times from the stage 1 curve of run &quot;%1&quot;.
</source>
        <translation>all-to-all 耗时取自运行 &quot;%1&quot; 的阶段 1 曲线。
</translation>
    </message>
    <message>
        <source>Give --achieved-tflops X for the compute part of the step.
</source>
        <translation>给出 --achieved-tflops X 即可估算每步的计算部分。
</translation>
    </message>
    <message>
        <source>the routing lab: Top-K, Expert-Choice and sigmoid + bias compared</source>
        <translation>路由实验：对比 Top-K、Expert-Choice 和 Sigmoid + 偏置</translation>
    </message>
    <message>
        <source>the cost structure: parameters, memory per device, all-to-all, step time</source>
        <translation>成本结构：参数量、每设备显存、all-to-all、步时间</translation>
    </message>
    <message>
        <source>--project needs a file name</source>
        <translation>--project 需要一个文件名</translation>
    </message>
    <message>
        <source>moewb: unknown command: %1</source>
        <translation>moewb: 未知命令：%1</translation>
    </message>
    <message>
        <source>unknown command &quot;%1&quot;</source>
        <translation>未知命令 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>moewb: cannot read %1: %2</source>
        <translation>moewb: 无法读取 %1：%2</translation>
    </message>
    <message>
        <source>the file is not a JSON object</source>
        <translation>文件不是 JSON 对象</translation>
    </message>
    <message>
        <source>a config record as JSON (docs/formats.md)</source>
        <translation>JSON 格式的配置记录（docs/formats.md）</translation>
    </message>
    <message>
        <source>expects exactly one FILE</source>
        <translation>需要且只需要一个 FILE</translation>
    </message>
    <message>
        <source>%1: complete; every field of the config record is present and valid.</source>
        <translation>%1：完整；配置记录的所有字段均已填写且有效。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n field(s) missing or invalid; runs with this record cannot be compared.</source>
        <translation>
            <numerusform>%1：%n 个字段缺失或无效；使用此配置记录的运行无法比较。</numerusform>
        </translation>
    </message>
    <message>
        <source>the record&apos;s name (default: its &quot;name&quot; field, else the file name)</source>
        <translation>配置记录的名称（默认：其 &quot;name&quot; 字段，否则为文件名）</translation>
    </message>
    <message>
        <source>Stored config record &quot;%1&quot; in %2 (complete).</source>
        <translation>已将配置记录 &quot;%1&quot; 存入 %2（完整）。</translation>
    </message>
    <message numerus="yes">
        <source>Stored config record &quot;%1&quot; in %2, incomplete: %n field(s) missing or invalid. Comparisons that use it are refused until they are fixed.</source>
        <translation>
            <numerusform>已将配置记录 &quot;%1&quot; 存入 %2，但不完整：%n 个字段缺失或无效。修正之前，使用它的比较都会被拒绝。</numerusform>
        </translation>
    </message>
    <message>
        <source>No config records in %1. Add one with: moewb record add FILE</source>
        <translation>%1 中没有配置记录。可用以下命令添加：moewb record add FILE</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>CREATED</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>完整</translation>
    </message>
    <message numerus="yes">
        <source>incomplete (%n field(s))</source>
        <translation>
            <numerusform>不完整（%n 个字段）</numerusform>
        </translation>
    </message>
    <message>
        <source>check a config record; exit 1 listing every missing or invalid field</source>
        <translation>检查配置记录；有缺失或无效字段时逐一列出，退出码为 1</translation>
    </message>
    <message>
        <source>store a config record (JSON, docs/formats.md) in the project</source>
        <translation>将配置记录（JSON，docs/formats.md）存入项目</translation>
    </message>
    <message>
        <source>the project&apos;s config records and whether each is complete</source>
        <translation>列出项目的配置记录及各自是否完整</translation>
    </message>
    <message>
        <source>the PDF to write (replaced only when the report is complete)</source>
        <translation>要写入的 PDF（报告完整生成后才替换原文件）</translation>
    </message>
    <message>
        <source>leave a framed placeholder where each plot goes (faster)</source>
        <translation>在每个图表的位置只留带框的占位（更快）</translation>
    </message>
    <message>
        <source>takes no arguments besides -o FILE.pdf</source>
        <translation>除 -o FILE.pdf 外不接受参数</translation>
    </message>
    <message>
        <source>needs the PDF to write: -o FILE.pdf</source>
        <translation>需要指定要写入的 PDF：-o FILE.pdf</translation>
    </message>
    <message>
        <source>report: no QApplication (internal error)</source>
        <translation>report: 没有 QApplication（内部错误）</translation>
    </message>
    <message>
        <source>report: %1 % %2</source>
        <translation>report: %1 % %2</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>the evaluation report as a PDF (needs no display)</source>
        <translation>生成 PDF 评估报告（无需显示器）</translation>
    </message>
    <message>
        <source>the cluster (moewb cluster add)</source>
        <translation>集群（见 moewb cluster add）</translation>
    </message>
    <message>
        <source>the config record the runs belong to</source>
        <translation>运行所属的配置记录</translation>
    </message>
    <message>
        <source>node counts to sweep, e.g. 2,4 (default: all nodes)</source>
        <translation>要扫描的节点数，如 2,4（默认：全部节点）</translation>
    </message>
    <message>
        <source>bytes each rank sends, e.g. 1M,16M,64M (K/M/G = 2^10/2^20/2^30; default 1M,16M,64M)</source>
        <translation>每个 rank 发送的字节数，如 1M,16M,64M（K/M/G = 2^10/2^20/2^30；默认 1M,16M,64M）</translation>
    </message>
    <message>
        <source>repeats per size (default 5)</source>
        <translation>每个消息大小的重复次数（默认 5）</translation>
    </message>
    <message>
        <source>timed iterations per repeat (default 20)</source>
        <translation>每次重复中计时的迭代次数（默认 20）</translation>
    </message>
    <message>
        <source>warm-up iterations per size (default 5)</source>
        <translation>每个消息大小的预热迭代次数（默认 5）</translation>
    </message>
    <message>
        <source>slurm: submit with sbatch --wait instead of srun</source>
        <translation>slurm：用 sbatch --wait 提交，而不用 srun</translation>
    </message>
    <message>
        <source>tcp (default) or nccl</source>
        <translation>tcp（默认）或 nccl</translation>
    </message>
    <message>
        <source>nccl: GPUs per node (default: the cluster&apos;s, else 1)</source>
        <translation>nccl：每节点 GPU 数（默认：取集群的设置，否则为 1）</translation>
    </message>
    <message>
        <source>run name prefix (runs PREFIX-nN; default stage1-&lt;time&gt;)</source>
        <translation>运行名称前缀（运行名为 PREFIX-nN；默认 stage1-&lt;time&gt;）</translation>
    </message>
    <message>
        <source>trust unknown host keys and record them (default: refuse them)</source>
        <translation>信任并记录未知的主机密钥（默认：拒绝）</translation>
    </message>
    <message>
        <source>seconds per SSH connection (default 10)</source>
        <translation>每次 SSH 连接的超时秒数（默认 10）</translation>
    </message>
    <message>
        <source>seconds per sweep point (default 600)</source>
        <translation>每个扫描点的超时秒数（默认 600）</translation>
    </message>
    <message>
        <source>seconds of silence from a peer the probe tolerates (default 60)</source>
        <translation>探针容忍对端无响应的秒数（默认 60）</translation>
    </message>
    <message>
        <source>mpirun: one extra argument (repeatable)</source>
        <translation>mpirun：一个额外参数（可重复）</translation>
    </message>
    <message>
        <source>slurm: one extra srun/sbatch argument (repeatable)</source>
        <translation>slurm：一个额外的 srun/sbatch 参数（可重复）</translation>
    </message>
    <message>
        <source>takes no arguments, only options</source>
        <translation>不接受参数，只接受选项</translation>
    </message>
    <message>
        <source>--cluster and --record are required</source>
        <translation>必须给出 --cluster 和 --record</translation>
    </message>
    <message>
        <source>--nodes must be node counts &gt;= 1 separated by commas, not &quot;%1&quot;</source>
        <translation>--nodes 必须是用逗号分隔、&gt;= 1 的节点数，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>--sizes: &quot;%1&quot; is not a size in bytes (e.g. 64K, 16M, 1G)</source>
        <translation>--sizes：&quot;%1&quot; 不是有效的字节大小（如 64K、16M、1G）</translation>
    </message>
    <message>
        <source>--backend must be tcp or nccl, not &quot;%1&quot;</source>
        <translation>--backend 必须是 tcp 或 nccl，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>interrupted: cancelling (remote processes are being stopped)</source>
        <translation>已中断：正在取消（正在停止远程进程）</translation>
    </message>
    <message>
        <source>moewb: saved before the failure: %1</source>
        <translation>moewb: 失败前已保存：%1</translation>
    </message>
    <message>
        <source>saved run %1</source>
        <translation>已保存运行 %1</translation>
    </message>
    <message>
        <source>stage 1 on a cluster: the probe over SSH, one run per node count</source>
        <translation>在集群上执行阶段 1：经 SSH 运行探针，每个节点数一个运行</translation>
    </message>
    <message>
        <source>only runs of this kind: probe, training, imported</source>
        <translation>只列出此类型的运行：probe、training、imported</translation>
    </message>
    <message>
        <source>only runs of this config record</source>
        <translation>只列出属于此配置记录的运行</translation>
    </message>
    <message>
        <source>--kind must be probe, training or imported, not &quot;%1&quot;</source>
        <translation>--kind 必须是 probe、training 或 imported，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>No runs in %1.</source>
        <translation>%1 中没有运行。</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>RECORD</source>
        <translation>配置记录</translation>
    </message>
    <message>
        <source>COMM SAMPLES</source>
        <translation>通信样本</translation>
    </message>
    <message>
        <source>STEPS</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>LOAD BLOCKS</source>
        <translation>负载块</translation>
    </message>
    <message>
        <source>the project&apos;s runs: probe, training and imported</source>
        <translation>列出项目中的运行：探针、训练和导入</translation>
    </message>
    <message>
        <source>Stage 1 · Communication baseline</source>
        <translation>阶段 1 · 通信基线</translation>
    </message>
    <message>
        <source>Stage 2 · Dense control</source>
        <translation>阶段 2 · 稠密对照</translation>
    </message>
    <message>
        <source>Stage 3 · Expert load and loss</source>
        <translation>阶段 3 · 专家负载与损失</translation>
    </message>
    <message>
        <source>Stage 4 · Transfer boundary</source>
        <translation>阶段 4 · 迁移边界</translation>
    </message>
    <message>
        <source>Run %1: %2, world %3%4
</source>
        <translation>运行 %1：%2，进程总数 %3%4
</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>nodes unknown</source>
        <translation>节点数未知</translation>
    </message>
    <message>
        <source>, cluster %1</source>
        <translation>，集群 %1</translation>
    </message>
    <message>
        <source>size (B)</source>
        <translation>大小（B）</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>time (µs)</source>
        <translation>耗时（µs）</translation>
    </message>
    <message>
        <source>p99 (µs)</source>
        <translation>P99（µs）</translation>
    </message>
    <message>
        <source>algbw (GB/s)</source>
        <translation>算法带宽（GB/s）</translation>
    </message>
    <message>
        <source>effbw (GB/s)</source>
        <translation>有效带宽（GB/s）</translation>
    </message>
    <message>
        <source>p99/median</source>
        <translation>P99/中位数</translation>
    </message>
    <message>
        <source>repeat mean (µs)</source>
        <translation>重复均值（µs）</translation>
    </message>
    <message>
        <source>repeat var (µs²)</source>
        <translation>重复方差（µs²）</translation>
    </message>
    <message>
        <source>CV</source>
        <translation>CV</translation>
    </message>
    <message>
        <source>Across node counts (effective bandwidth; algbw where the world size is unknown):
</source>
        <translation>不同节点数对比（有效带宽；进程总数未知时为算法带宽）：
</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>bw (GB/s)</source>
        <translation>带宽（GB/s）</translation>
    </message>
    <message>
        <source> (algbw)</source>
        <translation>（算法带宽）</translation>
    </message>
    <message>
        <source>MoE run</source>
        <translation>MoE 运行</translation>
    </message>
    <message>
        <source>dense run</source>
        <translation>稠密运行</translation>
    </message>
    <message>
        <source>MoE tokens/s/GPU</source>
        <translation>MoE tokens/s/GPU</translation>
    </message>
    <message>
        <source>dense tokens/s/GPU</source>
        <translation>稠密 tokens/s/GPU</translation>
    </message>
    <message>
        <source>MoE train loss</source>
        <translation>MoE 训练损失</translation>
    </message>
    <message>
        <source>dense train loss</source>
        <translation>稠密训练损失</translation>
    </message>
    <message>
        <source>MoE val loss</source>
        <translation>MoE 验证损失</translation>
    </message>
    <message>
        <source>dense val loss</source>
        <translation>稠密验证损失</translation>
    </message>
    <message>
        <source>at tokens</source>
        <translation>对比 token 数</translation>
    </message>
    <message>
        <source>activated MoE / dense</source>
        <translation>激活参数 MoE / 稠密</translation>
    </message>
    <message>
        <source>Throughput: mean over steps after the record&apos;s warm-up steps; losses at equal tokens.

</source>
        <translation>吞吐量：去掉配置记录中的预热步后各步的均值；损失在相同 token 数处比较。

</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>window steps</source>
        <translation>窗口步数</translation>
    </message>
    <message>
        <source>worst layer</source>
        <translation>最差层</translation>
    </message>
    <message>
        <source>steps above</source>
        <translation>超限步占比</translation>
    </message>
    <message>
        <source>max/mean max</source>
        <translation>max/mean 最大</translation>
    </message>
    <message>
        <source>max/mean mean</source>
        <translation>max/mean 平均</translation>
    </message>
    <message>
        <source>drop rate</source>
        <translation>丢弃率</translation>
    </message>
    <message>
        <source>busiest-device share</source>
        <translation>最忙设备占比</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source> (estimated)</source>
        <translation>（估算）</translation>
    </message>
    <message>
        <source> (measured)</source>
        <translation>（实测）</translation>
    </message>
    <message>
        <source>Source %1, target %2
</source>
        <translation>源 %1，目标 %2
</translation>
    </message>
    <message>
        <source>source (GB/s)</source>
        <translation>源（GB/s）</translation>
    </message>
    <message>
        <source>target (GB/s)</source>
        <translation>目标（GB/s）</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>effective</source>
        <translation>有效带宽</translation>
    </message>
    <message>
        <source>algbw</source>
        <translation>算法带宽</translation>
    </message>
    <message>
        <source>Applicability — the conclusions hold under:
</source>
        <translation>适用性声明：结论在以下条件下成立：
</translation>
    </message>
    <message>
        <source>the stage: 1, 2, 3 or 4</source>
        <translation>阶段：1、2、3 或 4</translation>
    </message>
    <message>
        <source>evaluate this run (repeatable; stage 4: SOURCE then TARGET); default: every run with the stage&apos;s data</source>
        <translation>评估此运行（可重复；阶段 4：先 SOURCE 后 TARGET）；默认：所有含该阶段数据的运行</translation>
    </message>
    <message>
        <source>expects the stage number: 1, 2, 3 or 4</source>
        <translation>需要阶段编号：1、2、3 或 4</translation>
    </message>
    <message>
        <source>Run: moewb stage %1</source>
        <translation>请运行：moewb stage %1</translation>
    </message>
    <message>
        <source>LOCKED — %1</source>
        <translation>【已锁定】%1</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注：%1</translation>
    </message>
    <message>
        <source>VERDICT: %1</source>
        <translation>结论：%1</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>下一步：%1</translation>
    </message>
    <message>
        <source>%1 = %2 (%3)</source>
        <translation>%1 = %2（%3）</translation>
    </message>
    <message>
        <source>Thresholds: %1</source>
        <translation>阈值：%1</translation>
    </message>
    <message>
        <source>the stage whose stop is overridden: 1, 2, 3 or 4</source>
        <translation>要豁免其停止的阶段：1、2、3 或 4</translation>
    </message>
    <message>
        <source>why the evaluation may go on despite the stop (required)</source>
        <translation>为何在停止后仍可继续评估（必填）</translation>
    </message>
    <message>
        <source>who decided (default: the user name)</source>
        <translation>决定人（默认：当前用户名）</translation>
    </message>
    <message>
        <source>--justification is required: an override is only valid with a written reason</source>
        <translation>必须给出 --justification：豁免只有附上书面理由才有效</translation>
    </message>
    <message>
        <source>moewb: %1; run: moewb stage %2</source>
        <translation>moewb: %1；请运行：moewb stage %2</translation>
    </message>
    <message>
        <source>Stage %1&apos;s stop is overridden by %2: &quot;%3&quot;. The stop and this justification stay on record and go into the report; stage %4 is unlocked.</source>
        <translation>阶段 %1 的停止已由 %2 豁免：“%3”。停止结论与这条理由都会保留在记录中并写入报告；阶段 %4 已解锁。</translation>
    </message>
    <message>
        <source>a stage&apos;s table and verdict (exit 1 when it stops, is not ready or is locked)</source>
        <translation>显示某阶段的表格与结论（停止、未就绪或已锁定时退出码为 1）</translation>
    </message>
    <message>
        <source>go past a stage&apos;s stop with a written justification (kept for the report)</source>
        <translation>附书面理由越过某阶段的停止（理由会保留并写入报告）</translation>
    </message>
    <message>
        <source>only show the facts; do not store them in the project</source>
        <translation>只显示节点信息，不存入项目</translation>
    </message>
    <message>
        <source>Facts not stored (--no-update).</source>
        <translation>节点信息未保存（--no-update）。</translation>
    </message>
    <message numerus="yes">
        <source>Stored the facts of %n node(s) in %1.</source>
        <translation>
            <numerusform>已将 %n 个节点的信息存入 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>connect to every node, check host keys, upload the probe, show and store its inventory</source>
        <translation>连接每个节点，检查主机密钥，上传探针，显示并保存节点清单</translation>
    </message>
    <message>
        <source>files and folders to import; each becomes one run, or all one run with --run or --into</source>
        <translation>要导入的文件和文件夹；每个成为一个运行，或用 --run 或 --into 全部合为一个运行</translation>
    </message>
    <message>
        <source>read every file as this format instead of detecting it: %1</source>
        <translation>按此格式读取所有文件，不自动检测：%1</translation>
    </message>
    <message>
        <source>make ONE run of this name from every PATH (default: one run per PATH, named after it and made unique)</source>
        <translation>用所有 PATH 生成一个以此命名的运行（默认：每个 PATH 一个运行，以其命名并自动去重）</translation>
    </message>
    <message>
        <source>add every PATH to this existing run, in one transaction</source>
        <translation>在一个事务中把所有 PATH 添加到这个已有运行</translation>
    </message>
    <message>
        <source>when rank files do not hold the same steps, import the steps every rank file has (default: refuse)</source>
        <translation>rank 文件包含的步不一致时，只导入每个 rank 文件都有的步（默认：拒绝）</translation>
    </message>
    <message>
        <source>leave files matching this wildcard out of the folders given (repeatable; matched against the name and the relative path)</source>
        <translation>从给出的文件夹中排除与此通配符匹配的文件（可重复；匹配文件名和相对路径）</translation>
    </message>
    <message>
        <source>the run to read from a W&amp;B CSV export that holds several</source>
        <translation>W&amp;B CSV 导出包含多个运行时，要读取的那个运行</translation>
    </message>
    <message>
        <source>read and check everything, print the plan, store nothing</source>
        <translation>读取并检查所有内容，打印计划，不存储任何内容</translation>
    </message>
    <message>
        <source>nccl-tests text: the test&apos;s ranks, when the table does not show them and its rows cannot give them</source>
        <translation>nccl-tests 文本：表格未显示、数据行也推断不出 rank 数时，给出测试的 rank 数</translation>
    </message>
    <message>
        <source>nccl-tests text: the test (alltoall or alltoallv), when the table does not name it</source>
        <translation>nccl-tests 文本：表格未写明测试名称时，给出测试（alltoall 或 alltoallv）</translation>
    </message>
    <message>
        <source>expects at least one PATH</source>
        <translation>至少需要一个 PATH</translation>
    </message>
    <message>
        <source>--into needs the name of a run</source>
        <translation>--into 需要一个运行名称</translation>
    </message>
    <message>
        <source>--run makes a new run and --into adds to one; give one of them</source>
        <translation>--run 新建运行，--into 添加到已有运行；请只给出其中一个</translation>
    </message>
    <message>
        <source>--ranks must be a whole number &gt;= 1, not &quot;%1&quot;</source>
        <translation>--ranks 必须是 &gt;= 1 的整数，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>--collective must be alltoall or alltoallv (only all-to-all tests are imported), not &quot;%1&quot;</source>
        <translation>--collective 必须是 alltoall 或 alltoallv（只导入 all-to-all 测试），而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>no run named &quot;%1&quot; in %2 to add to</source>
        <translation>%2 中没有名为 &quot;%1&quot; 的运行可供添加</translation>
    </message>
    <message>
        <source>run &quot;%1&quot; belongs to record &quot;%2&quot;, not &quot;%3&quot;</source>
        <translation>运行 &quot;%1&quot; 属于配置记录 &quot;%2&quot;，而不是 &quot;%3&quot;</translation>
    </message>
    <message numerus="yes">
        <source>Plan: add %n file(s) to run &quot;%1&quot; (record &quot;%2&quot;):</source>
        <translation>
            <numerusform>计划：将 %n 个文件添加到运行 &quot;%1&quot;（配置记录 &quot;%2&quot;）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Plan: run &quot;%1&quot; (record &quot;%2&quot;) from %n file(s):</source>
        <translation>
            <numerusform>计划：由 %n 个文件生成运行 &quot;%1&quot;（配置记录 &quot;%2&quot;）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Dry run: nothing stored.</source>
        <translation>试运行：未存储任何内容。</translation>
    </message>
    <message numerus="yes">
        <source>Added to run &quot;%2&quot; from %1 (%3, %n data row(s)); the run now holds %4 communication samples, %5 step metrics, %6 expert-load blocks; record &quot;%7&quot;.</source>
        <translation>
            <numerusform>已从 %1 添加到运行 &quot;%2&quot;（%3，%n 行数据）；该运行现有 %4 条通信样本、%5 条步指标、%6 个专家负载块；配置记录 &quot;%7&quot;。</numerusform>
        </translation>
    </message>
    <message>
        <source>Usage: moewb [--project FILE | --demo] [--json] COMMAND ...

Evaluate Mixture-of-Experts training on real clusters, headless.

Global options:
</source>
        <translation>用法：moewb [--project FILE | --demo] [--json] COMMAND ...

在真实集群上评估混合专家（MoE）训练，无需图形界面。

全局选项：
</translation>
    </message>
    <message>
        <source>the project file (*.moewb); default: %1</source>
        <translation>项目文件（*.moewb）；默认：%1</translation>
    </message>
    <message>
        <source>run COMMAND on a fresh copy of the bundled demo project, written to a temporary folder (under $TMPDIR, else /tmp) and removed when the command ends; nothing else is touched (to keep a copy: moewb demo -o FILE)</source>
        <translation>在内置演示项目的一份新副本上运行 COMMAND：副本写入临时文件夹（位于 $TMPDIR 下，否则 /tmp），命令结束后删除；不改动其他任何内容（要保留副本：moewb demo -o FILE）</translation>
    </message>
    <message>
        <source>machine-readable output</source>
        <translation>输出机器可读的 JSON</translation>
    </message>
    <message>
        <source>this help; COMMAND --help for a command&apos;s own</source>
        <translation>显示本帮助；COMMAND --help 显示该命令自己的帮助</translation>
    </message>
    <message>
        <source>the program and format versions</source>
        <translation>显示程序与文件格式的版本</translation>
    </message>
    <message>
        <source>
Commands:
</source>
        <translation>
命令：
</translation>
    </message>
    <message>
        <source>Exit codes: 0 success, 1 a gate stopped or validation failed, 2 usage error, 3 runtime failure (I/O, network, remote).</source>
        <translation>退出码：0 成功；1 某阶段停止或校验失败；2 用法错误；3 运行时失败（I/O、网络、远程）。</translation>
    </message>
    <message>
        <source>moewb %1 (project schema %2, probe JSON moe-probe/2, reads /1)</source>
        <translation>moewb %1（项目格式版本 %2，探针 JSON moe-probe/2，也可读取 /1）</translation>
    </message>
    <message>
        <source>--demo works on a fresh copy of the demo project; it cannot be combined with --project</source>
        <translation>--demo 在演示项目的新副本上工作，不能与 --project 同时使用</translation>
    </message>
    <message>
        <source>--demo: cannot create a temporary folder in %1: %2</source>
        <translation>--demo：无法在 %1 中创建临时文件夹：%2</translation>
    </message>
    <message>
        <source>--demo: %1</source>
        <translation>--demo：%1</translation>
    </message>
    <message>
        <source>smallest size each rank sends, as moe-probe -b (K/M/G; default 32M when -e or -f is given)</source>
        <translation>每个 rank 发送的最小大小，同 moe-probe -b（K/M/G；给出 -e 或 -f 时默认 32M）</translation>
    </message>
    <message>
        <source>largest size, as moe-probe -e (default 32M when -b or -f is given)</source>
        <translation>最大大小，同 moe-probe -e（给出 -b 或 -f 时默认 32M）</translation>
    </message>
    <message>
        <source>multiply the size by F from -b up to -e (a whole number 2 to 1048576; default 2)</source>
        <translation>从 -b 到 -e，每步将大小乘以 F（2 到 1048576 的整数；默认 2）</translation>
    </message>
    <message>
        <source>one all-to-all over all ranks (default: the record&apos;s EP groups, all at once, laid out as in training)</source>
        <translation>在所有 rank 上做一次 all-to-all（默认：按配置记录的 EP 组同时运行，布局与训练一致）</translation>
    </message>
    <message>
        <source>0: the same as --whole-world</source>
        <translation>0：等同于 --whole-world</translation>
    </message>
    <message>
        <source>--ep-size takes only 0 (one all-to-all over the world); the EP size comes from the record&apos;s parallelism.ep</source>
        <translation>--ep-size 只接受 0（在整个 world 上做一次 all-to-all）；EP 规模取自配置记录的 parallelism.ep</translation>
    </message>
    <message>
        <source>%1 must be a whole number &gt;= %2, not &quot;%3&quot;</source>
        <translation>%1 必须是 &gt;= %2 的整数，而不是 &quot;%3&quot;</translation>
    </message>
    <message>
        <source>--sizes lists the sizes; -b/-e/-f make a series: give one or the other</source>
        <translation>--sizes 逐个列出大小，-b/-e/-f 生成一个序列：两者只能选其一</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a size in bytes &gt; 0 (e.g. 64K, 16M, 1G)</source>
        <translation>%1：&quot;%2&quot; 不是 &gt; 0 的字节大小（如 64K、16M、1G）</translation>
    </message>
    <message>
        <source>-f must be a whole number from 2 to 1048576, not &quot;%1&quot;</source>
        <translation>-f 必须是 2 到 1048576 之间的整数，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>-b (%1 bytes) is larger than -e (%2 bytes)</source>
        <translation>-b（%1 字节）大于 -e（%2 字节）</translation>
    </message>
    <message>
        <source>--pattern: %1</source>
        <translation>--pattern：%1</translation>
    </message>
    <message>
        <source>concurrency: %1
</source>
        <translation>并发方式：%1
</translation>
    </message>
    <message>
        <source>(moewb stage %1 --preview shows its data without a verdict.)</source>
        <translation>（moewb stage %1 --preview 可显示其数据，但不下结论。）</translation>
    </message>
    <message>
        <source>No verdict: only passing stage %1 (or overriding its stop with a written justification) unlocks stage %2.</source>
        <translation>无结论：只有通过阶段 %1（或附书面理由豁免其停止）才能解锁阶段 %2。</translation>
    </message>
    <message>
        <source>built-in default, not stored</source>
        <translation>内置默认值，未存入项目</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>the threshold, e.g. stage1.cv_max (moewb threshold list)</source>
        <translation>阈值的键，如 stage1.cv_max（见 moewb threshold list）</translation>
    </message>
    <message>
        <source>team (default: your team&apos;s own figure) or suggested (derived from a first round of measurements)</source>
        <translation>team（默认：团队自己设定的数值）或 suggested（由第一轮测量推算得出）</translation>
    </message>
    <message>
        <source>why this value (kept for the report)</source>
        <translation>取此值的理由（会保留并写入报告）</translation>
    </message>
    <message>
        <source>expects KEY VALUE</source>
        <translation>需要 KEY VALUE</translation>
    </message>
    <message>
        <source>unknown threshold &quot;%1&quot;; the known keys are: %2</source>
        <translation>未知阈值 &quot;%1&quot;；已知的键：%2</translation>
    </message>
    <message>
        <source>--source must be team or suggested, not &quot;%1&quot;</source>
        <translation>--source 必须是 team 或 suggested，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>%1 = %2 (%3) saved in %4. Evaluate again to apply it: moewb stage %5</source>
        <translation>%1 = %2（%3）已保存到 %4。重新评估即可应用：moewb stage %5</translation>
    </message>
    <message>
        <source>the stage: 1 (the only one that suggests thresholds)</source>
        <translation>阶段：1（只有阶段 1 会建议阈值）</translation>
    </message>
    <message>
        <source>derive from this run (repeatable); default: every stage 1 run</source>
        <translation>根据此运行推算（可重复）；默认：所有阶段 1 运行</translation>
    </message>
    <message>
        <source>store the suggestions as thresholds (source suggested); without it nothing changes</source>
        <translation>将建议值存为阈值（来源为 suggested）；不加此选项则不做任何更改</translation>
    </message>
    <message>
        <source>stage %1 suggests no thresholds: only stage 1 derives them from a first round of measurements (set the others with: moewb threshold set KEY VALUE)</source>
        <translation>阶段 %1 不建议阈值：只有阶段 1 会根据第一轮测量推算阈值（其他阈值请用 moewb threshold set KEY VALUE 设置）</translation>
    </message>
    <message>
        <source>moewb: no thresholds to suggest from stage 1&apos;s runs.</source>
        <translation>moewb: 无法根据阶段 1 的运行建议任何阈值。</translation>
    </message>
    <message>
        <source>suggested</source>
        <translation>建议值</translation>
    </message>
    <message>
        <source>now</source>
        <translation>当前值</translation>
    </message>
    <message>
        <source>source now</source>
        <translation>当前来源</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Applied (source suggested). Evaluate again to use them: moewb stage 1</source>
        <translation>已应用（来源为 suggested）。重新评估即可使用：moewb stage 1</translation>
    </message>
    <message>
        <source>Not applied; to store them: moewb threshold suggest 1 --apply</source>
        <translation>未应用；要保存它们：moewb threshold suggest 1 --apply</translation>
    </message>
    <message>
        <source>the thresholds the gates compare against: value, source, note, when set</source>
        <translation>列出各阶段判定所对照的阈值：值、来源、备注、设置时间</translation>
    </message>
    <message>
        <source>set a threshold (unknown keys are refused, listing the known ones)</source>
        <translation>设置阈值（未知的键会被拒绝，并列出已知的键）</translation>
    </message>
    <message>
        <source>thresholds derived from stage N&apos;s runs (a first round); stored only with --apply</source>
        <translation>根据阶段 N 的运行（第一轮测量）推算阈值；仅在加 --apply 时保存</translation>
    </message>
    <message>
        <source>moewb: note: %1 is read-only (its file or folder cannot be written): it can be listed and reported; changes are refused.</source>
        <translation>moewb：注意：%1 为只读（其文件或所在文件夹不可写）：可以列出和生成报告；任何更改都会被拒绝。</translation>
    </message>
    <message>
        <source>%1: cannot be read: %2</source>
        <translation>%1:无法读取：%2</translation>
    </message>
    <message>
        <source>%1: larger than 256 MiB</source>
        <translation>%1:大于 256 MiB</translation>
    </message>
    <message>
        <source>%1:%2: %3 loads, the first row has %4</source>
        <translation>%1:%2:有 %3 个负载值，第一行有 %4 个</translation>
    </message>
    <message>
        <source>%1:%2: column %3: &quot;%4&quot; is not a load (a number ≥ 0)</source>
        <translation>%1:%2:第 %3 列：&quot;%4&quot; 不是负载值（应为 ≥ 0 的数）</translation>
    </message>
    <message>
        <source>%1: no rows of loads</source>
        <translation>%1:没有负载行</translation>
    </message>
    <message>
        <source>Hierarchical policy: groups packed to %1 nodes, replicas within nodes, then packed to GPUs.</source>
        <translation>分层策略：专家组先装箱到 %1 个节点，在节点内复制专家，再装箱到各 GPU。</translation>
    </message>
    <message>
        <source>Global policy: %1 groups do not divide over %2 nodes.</source>
        <translation>全局策略：%1 个专家组无法均分到 %2 个节点。</translation>
    </message>
    <message>
        <source>layer row %1 phy2log: %2</source>
        <translation>第 %1 行 phy2log:%2</translation>
    </message>
    <message>
        <source>layer row %1 logcnt:  %2</source>
        <translation>第 %1 行 logcnt: %2</translation>
    </message>
    <message>
        <source>a [layers × experts] load matrix: one row per line, whitespace-separated (instead of RUN)</source>
        <translation>[层 × 专家] 负载矩阵：每行一层，以空白分隔（代替 RUN）</translation>
    </message>
    <message>
        <source>physical experts per layer, a multiple of --gpus (with --weights)</source>
        <translation>每层的物理专家数，须为 --gpus 的整数倍（与 --weights 一起使用）</translation>
    </message>
    <message>
        <source>expert groups (default 1)</source>
        <translation>专家组数（默认 1）</translation>
    </message>
    <message>
        <source>GPUs in all, a multiple of --nodes (default with RUN: parallelism.ep)</source>
        <translation>GPU 总数，须为 --nodes 的整数倍（使用 RUN 时默认：parallelism.ep）</translation>
    </message>
    <message>
        <source>with RUN: the window of steps, A-B (default: all)</source>
        <translation>使用 RUN 时：步数窗口，A-B（默认：全部）</translation>
    </message>
    <message>
        <source>with RUN: redundant expert slots per GPU (default 0)</source>
        <translation>使用 RUN 时：每个 GPU 的冗余专家槽位数（默认 0）</translation>
    </message>
    <message>
        <source>with RUN: write the placement and the load (EPLB&apos;s weight) as JSON</source>
        <translation>使用 RUN 时：把放置方案和负载（EPLB 的 weight）写成 JSON</translation>
    </message>
    <message>
        <source>a run with expert load (or --weights FILE)</source>
        <translation>含专家负载的运行（或 --weights FILE）</translation>
    </message>
    <message>
        <source>--replicas, --groups, --nodes and --gpus must be positive integers, --redundant an integer ≥ 0</source>
        <translation>--replicas、--groups、--nodes 和 --gpus 必须是正整数，--redundant 必须是 ≥ 0 的整数</translation>
    </message>
    <message>
        <source>give either RUN or --weights FILE, not both</source>
        <translation>请给出 RUN 或 --weights FILE 之一，不能同时给出</translation>
    </message>
    <message>
        <source>--weights needs --replicas and --gpus</source>
        <translation>--weights 需要 --replicas 和 --gpus</translation>
    </message>
    <message>
        <source>needs RUN or --weights FILE</source>
        <translation>需要 RUN 或 --weights FILE</translation>
    </message>
    <message>
        <source>with RUN the replicas are the experts plus --redundant per GPU</source>
        <translation>使用 RUN 时，副本数为专家数加上每个 GPU 的 --redundant</translation>
    </message>
    <message>
        <source>run %1: its config record %2 has no parallelism.ep; give --gpus</source>
        <translation>运行 %1:其配置记录 %2 没有 parallelism.ep;请给出 --gpus</translation>
    </message>
    <message>
        <source>run %1: %2</source>
        <translation>运行 %1:%2</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1:%2</translation>
    </message>
    <message>
        <source>EPLB hierarchical</source>
        <translation>EPLB 分层</translation>
    </message>
    <message>
        <source>EPLB global</source>
        <translation>EPLB 全局</translation>
    </message>
    <message>
        <source>LAYER</source>
        <translation>层</translation>
    </message>
    <message>
        <source>BUSIEST SHARE TODAY</source>
        <translation>当前最忙设备占比</translation>
    </message>
    <message>
        <source>AFTER REBALANCING</source>
        <translation>重新均衡后</translation>
    </message>
    <message>
        <source>Busiest-device share (predicted from the measured load; even = %1): %2 today, %3 after rebalancing, mean over layers.</source>
        <translation>最忙设备占比（由实测负载预测；均匀时 = %1）:当前 %2,重新均衡后 %3,为各层平均值。</translation>
    </message>
    <message>
        <source>Placement (phy2log, log2phy, logcnt) and load (weight) written to %1.</source>
        <translation>放置方案（phy2log、log2phy、logcnt）和负载（weight）已写入 %1。</translation>
    </message>
    <message>
        <source>DeepSeek EPLB&apos;s rebalanced expert placement and the busiest-device share it would give</source>
        <translation>用 DeepSeek EPLB 重新均衡专家放置，以及它带来的最忙设备占比</translation>
    </message>
    <message>
        <source>no run named &quot;%1&quot; in %2</source>
        <translation>%2 中没有名为 &quot;%1&quot; 的运行</translation>
    </message>
    <message>
        <source>a layer number, &quot;worst&quot; (the layer whose busiest rank moves the most bytes; default) or &quot;all&quot; (every MoE layer summed)</source>
        <translation>层号、&quot;worst&quot;（最忙 rank 传输字节最多的层；默认）或 &quot;all&quot;（所有 MoE 层求和）</translation>
    </message>
    <message>
        <source>the window of steps, A-B (default: all)</source>
        <translation>步数窗口，A-B（默认：全部）</translation>
    </message>
    <message>
        <source>a placement file (JSON with num_gpus and phy2log, as `moewb placement -o` writes); default: experts placed contiguously over parallelism.ep</source>
        <translation>放置文件（含 num_gpus 和 phy2log 的 JSON,即 `moewb placement -o` 写出的文件）；默认：专家按 parallelism.ep 连续放置</translation>
    </message>
    <message>
        <source>tokens one EP rank routes per micro-batch (default: batch.sequence_length, one sequence)</source>
        <translation>每个微批次中一个 EP rank 路由的 token 数（默认：batch.sequence_length,即一个序列）</translation>
    </message>
    <message>
        <source>bytes of one hidden-state element (default 2, bf16)</source>
        <translation>隐藏状态每个元素的字节数（默认 2,bf16）</translation>
    </message>
    <message>
        <source>a run with expert load</source>
        <translation>含专家负载的运行</translation>
    </message>
    <message>
        <source>needs exactly one RUN</source>
        <translation>需要且只需要一个 RUN</translation>
    </message>
    <message>
        <source>--layer must be a layer number, worst or all, not &quot;%1&quot;</source>
        <translation>--layer 必须是层号、worst 或 all,而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>--bytes-per-element must be an integer from 1 to 64</source>
        <translation>--bytes-per-element 必须是 1 到 64 之间的整数</translation>
    </message>
    <message>
        <source>--tokens-per-rank must be a positive integer</source>
        <translation>--tokens-per-rank 必须是正整数</translation>
    </message>
    <message>
        <source>run %1: its config record %2 has no %3, which the traffic needs</source>
        <translation>运行 %1:其配置记录 %2 没有流量计算所需的 %3</translation>
    </message>
    <message>
        <source>--tokens-per-rank</source>
        <translation>--tokens-per-rank</translation>
    </message>
    <message>
        <source>batch.sequence_length: one sequence per micro-batch</source>
        <translation>batch.sequence_length:每个微批次一个序列</translation>
    </message>
    <message>
        <source>%1: no placement for layer %2</source>
        <translation>%1:没有第 %2 层的放置方案</translation>
    </message>
    <message>
        <source>run %1, layer %2: %3</source>
        <translation>运行 %1,第 %2 层：%3</translation>
    </message>
    <message>
        <source>run %1 has no expert load for layer %2 in the chosen steps</source>
        <translation>运行 %1 在所选步数内没有第 %2 层的专家负载</translation>
    </message>
    <message numerus="yes">
        <source>all %n MoE layers summed</source>
        <translation>
            <numerusform>全部 %n 个 MoE 层求和</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (the worst: its busiest rank moves the most bytes)</source>
        <translation>%1（最差的层：其最忙 rank 传输的字节最多）</translation>
    </message>
    <message>
        <source>contiguous over EP %1</source>
        <translation>按 EP %1 连续放置</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>independent experts (from per-expert counts; an approximation, docs/traffic.md)</source>
        <translation>专家独立（基于每个专家的计数；为近似，见 docs/traffic.md）</translation>
    </message>
    <message>
        <source>moewb traffic: dispatch bytes of one MoE layer per micro-batch, row = source EP rank, column = destination</source>
        <translation>moewb traffic:一个 MoE 层每个微批次的分发字节数，行 = 源 EP rank,列 = 目标</translation>
    </message>
    <message>
        <source>run %1, steps %2-%3, layer %4</source>
        <translation>运行 %1,第 %2-%3 步，第 %4 层</translation>
    </message>
    <message>
        <source>%1 tokens per rank, top-%2, hidden %3 × %4 B; placement %5; de-duplication model: %6</source>
        <translation>每个 rank %1 个 token,top-%2,隐藏维度 %3 × %4 B;放置：%5;去重模型：%6</translation>
    </message>
    <message>
        <source>combine is the transpose; run with: moe-probe --pattern matrix:FILE</source>
        <translation>combine 为其转置；运行方式：moe-probe --pattern matrix:FILE</translation>
    </message>
    <message>
        <source>Run %1, steps %2-%3 (%4 with load), layer %5.</source>
        <translation>运行 %1,第 %2-%3 步（其中 %4 步有负载），第 %5 层。</translation>
    </message>
    <message>
        <source>One micro-batch: %1 tokens per EP rank (%2), top-%3, hidden %4 × %5 B; placement %6.</source>
        <translation>一个微批次：每个 EP rank %1 个 token(%2),top-%3,隐藏维度 %4 × %5 B;放置：%6。</translation>
    </message>
    <message>
        <source>A token goes once to each rank holding any of its experts (Megatron-Core&apos;s alltoall dispatcher, DeepEP); de-duplication model: %1.</source>
        <translation>一个 token 只向持有其任一专家的每个 rank 发送一次（Megatron-Core 的 alltoall 分发器、DeepEP）；去重模型：%1。</translation>
    </message>
    <message>
        <source>RANK</source>
        <translation>RANK</translation>
    </message>
    <message>
        <source>DISPATCH SENDS</source>
        <translation>分发发送</translation>
    </message>
    <message>
        <source>DISPATCH RECEIVES</source>
        <translation>分发接收</translation>
    </message>
    <message>
        <source>TOKENS IN / TOKEN</source>
        <translation>每 TOKEN 收到</translation>
    </message>
    <message>
        <source>WITHOUT DE-DUP</source>
        <translation>不去重时</translation>
    </message>
    <message>
        <source>Busiest rank %1: %2 per micro-batch, against %3 if routing were uniform (%4×).</source>
        <translation>最忙的 rank %1:每个微批次 %2,路由均匀时为 %3(%4×)。</translation>
    </message>
    <message>
        <source>Dispatch matrix written to %1 (moe-probe --pattern matrix:%1; combine is its transpose).</source>
        <translation>分发矩阵已写入 %1(moe-probe --pattern matrix:%1;combine 为其转置）。</translation>
    </message>
    <message>
        <source>--pattern from-run:RUN[:LAYER] needs a run name</source>
        <translation>--pattern from-run:RUN[:LAYER] 需要一个运行名称</translation>
    </message>
    <message>
        <source>--pattern from-run:%1: %2</source>
        <translation>--pattern from-run:%1:%2</translation>
    </message>
    <message>
        <source>cannot write the traffic matrix in %1</source>
        <translation>无法在 %1 中写入流量矩阵</translation>
    </message>
    <message>
        <source>Traffic from run %1, layer %2: %3×%3 dispatch matrix, busiest rank %4 per micro-batch against %5 if routing were uniform; the probe scales it to each size.</source>
        <translation>来自运行 %1 第 %2 层的流量：%3×%3 分发矩阵，最忙的 rank 每个微批次 %4,路由均匀时为 %5;探针会把它缩放到每个大小。</translation>
    </message>
    <message>
        <source>traffic pattern for every node&apos;s probe: uniform (default), hot:K:F (K hot destinations get F times the bytes), zipf:S, matrix:FILE (an N×N byte matrix on this machine, uploaded to every node; N must be the ranks of every sweep point), or from-run:RUN[:LAYER] (the dispatch matrix of a stored run&apos;s measured routing, as `moewb traffic RUN --layer LAYER` computes it; LAYER defaults to worst)</source>
        <translation>每个节点探针的流量模式：uniform（默认）、hot:K:F（K 个热点目标收到 F 倍字节）、zipf:S、matrix:FILE（本机上的 N×N 字节矩阵，会上传到每个节点；N 必须等于每个扫描点的 rank 数），或 from-run:RUN[:LAYER]（已存运行的实测路由所对应的分发矩阵，与 `moewb traffic RUN --layer LAYER` 的计算相同；LAYER 默认为 worst）</translation>
    </message>
    <message>
        <source>a probe run with uniform traffic</source>
        <translation>均匀流量的探针运行</translation>
    </message>
    <message>
        <source>a probe run with a run&apos;s routing (--pattern from-run: or matrix:)</source>
        <translation>使用某次运行路由的探针运行（--pattern from-run: 或 matrix:）</translation>
    </message>
    <message>
        <source>needs UNIFORM_RUN and ROUTED_RUN</source>
        <translation>需要 UNIFORM_RUN 和 ROUTED_RUN</translation>
    </message>
    <message>
        <source>runs %1 and %2 have no message size in common</source>
        <translation>运行 %1 和 %2 没有共同的消息大小</translation>
    </message>
    <message>
        <source>Uniform: run %1 (%2). Measured routing: run %3 (%4). Median time per call, every repeat and iteration (warm-up excluded).</source>
        <translation>均匀：运行 %1(%2)。实测路由：运行 %3(%4)。每次调用时间的中位数，涵盖所有重复和迭代（不含预热）。</translation>
    </message>
    <message>
        <source>Warning: the two runs differ in cluster or world size; the ratio compares different setups.</source>
        <translation>警告：两次运行的集群或总 rank 数不同；该比值比较的是不同的配置。</translation>
    </message>
    <message>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>UNIFORM</source>
        <translation>均匀</translation>
    </message>
    <message>
        <source>MEASURED ROUTING</source>
        <translation>实测路由</translation>
    </message>
    <message>
        <source>RATIO</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>At %1 per rank, your routing makes the all-to-all %2× as long as a uniform one on this cluster.</source>
        <translation>每个 rank %1 时，你的路由使 all-to-all 在该集群上耗时为均匀路由的 %2×。</translation>
    </message>
    <message>
        <source>per message size, a measured-routing probe run&apos;s time against a uniform one and their ratio</source>
        <translation>按消息大小比较实测路由探针运行与均匀运行的耗时及其比值</translation>
    </message>
    <message numerus="yes">
        <source>Note: %n expert(s) counted more assignments than there are tokens (count &gt; Σ counts / top-k), which one layer&apos;s top-k routing cannot give; their probability was capped at 1. Check the load&apos;s units and top-k.</source>
        <translation>
            <numerusform>注意：有 %n 个专家的分配数多于 token 数（计数 &gt; Σ 计数 / top-k），单层的 top-k 路由不可能出现这种情况；其概率已被截断为 1。请检查负载的单位和 top-k。</numerusform>
        </translation>
    </message>
    <message>
        <source>nodes (default 1; with RUN: the nodes its EP group spans)</source>
        <translation>节点数（默认 1；指定 RUN 时：其 EP 组跨越的节点数）</translation>
    </message>
    <message>
        <source>The verdict was not saved: the project is read-only.</source>
        <translation>结论未保存：该项目为只读。</translation>
    </message>
    <message>
        <source>All-to-all times from the stage 1 curve of run &quot;%1&quot;, measured with the training&apos;s own routing: %2.
</source>
        <translation>All-to-all 时间取自阶段 1 运行“%1”的曲线，该曲线按训练自身的路由测得：%2。
</translation>
    </message>
    <message>
        <source>--local takes no --node, --gpus, --identity or --accept-new-host-keys</source>
        <translation>--local 不接受 --node、--gpus、--identity 或 --accept-new-host-keys</translation>
    </message>
    <message>
        <source>cluster %1 not added: this computer could not be checked: %2</source>
        <translation>未添加集群 %1：无法检查本机：%2</translation>
    </message>
    <message>
        <source>moewb: note: %1; stage 1 on %2 will be refused here</source>
        <translation>moewb：注意：%1；在此处对 %2 运行阶段 1 将被拒绝</translation>
    </message>
    <message>
        <source>Added cluster %1 (this computer, %2 ranks on loopback) to %3.</source>
        <translation>已将集群 %1（本机，%2 个 rank，回环网络）添加到 %3。</translation>
    </message>
    <message>
        <source>Added cluster %1 (this computer, %2 ranks in network namespaces, links shaped to %3) to %4.</source>
        <translation>已将集群 %1（本机，%2 个 rank 位于网络命名空间中，链路限速为 %3）添加到 %4。</translation>
    </message>
    <message>
        <source>Cluster %1 is this computer: no SSH, no host keys.</source>
        <translation>集群 %1 是本机：无 SSH，无主机密钥。</translation>
    </message>
    <message>
        <source>moewb: this computer: %1</source>
        <translation>moewb：本机：%1</translation>
    </message>
    <message>
        <source>a cluster of this computer: the ranks as local processes, no SSH</source>
        <translation>本机集群：rank 作为本地进程运行，无 SSH</translation>
    </message>
    <message>
        <source>with --local: the ranks (&gt;= 2), one node each</source>
        <translation>与 --local 一起：rank 数（&gt;= 2），每个 rank 一个节点</translation>
    </message>
    <message>
        <source>with --local: each rank in its own network namespace, its link shaped to RATE (tc tbf, e.g. 200mbit; root only)</source>
        <translation>与 --local 一起：每个 rank 位于自己的网络命名空间中，链路限速为 RATE（tc tbf，例如 200mbit；仅限 root）</translation>
    </message>
    <message>
        <source>with --netns-rate: tbf&apos;s burst (default 10 ms of the rate, at least 32kb)</source>
        <translation>与 --netns-rate 一起：tbf 的突发大小（默认为该速率 10 毫秒的量，至少 32kb）</translation>
    </message>
    <message>
        <source>--ranks, --netns-rate and --netns-burst go with --local</source>
        <translation>--ranks、--netns-rate 和 --netns-burst 需与 --local 一起使用</translation>
    </message>
    <message>
        <source>this computer (%1 ranks, loopback)</source>
        <translation>本机（%1 个 rank，回环网络）</translation>
    </message>
    <message>
        <source>this computer (%1 ranks, network namespaces at %2)</source>
        <translation>本机（%1 个 rank，网络命名空间，速率 %2）</translation>
    </message>
    <message>
        <source>add a cluster (nodes by ~/.ssh/config alias or user@host:port, or --local: this computer)</source>
        <translation>添加集群（节点用 ~/.ssh/config 别名或 user@host:port 表示，或 --local：本机）</translation>
    </message>
    <message>
        <source>refuse a file bigger than SIZE before reading it: bytes, or a number followed by K, M, G or T (default: MOEWB_IMPORT_MAX_BYTES, else 4G)</source>
        <translation>拒绝大于 SIZE 的文件（读取之前即拒绝）：字节数，或数字后跟 K、M、G 或 T（默认：MOEWB_IMPORT_MAX_BYTES，未设置则为 4G）</translation>
    </message>
    <message>
        <source>--max-bytes must be a size in bytes, or a number followed by K, M, G or T (powers of 1024), not &quot;%1&quot;</source>
        <translation>--max-bytes 必须是字节数，或数字后跟 K、M、G 或 T（1024 的幂），而不是“%1”</translation>
    </message>
    <message>
        <source>the project to write (default: reference.moewb beside the default project); its measurements go to FILE without .moewb + .reference-data/</source>
        <translation>要写入的项目（默认：默认项目旁的 reference.moewb）；其测量数据写入 FILE 去掉 .moewb 再加 .reference-data/</translation>
    </message>
    <message>
        <source>fewer steps and sizes: minutes instead of a quarter of an hour</source>
        <translation>更少的步数和消息大小：几分钟，而不是一刻钟</translation>
    </message>
    <message>
        <source>replace an existing project and its measurements</source>
        <translation>替换已有的项目及其测量数据</translation>
    </message>
    <message>
        <source>also write the PDF report</source>
        <translation>同时写出 PDF 报告</translation>
    </message>
    <message>
        <source>measure cluster A only, also as root (stage 4 is then not measured)</source>
        <translation>只测量集群 A，即使以 root 运行（阶段 4 因此不测量）</translation>
    </message>
    <message>
        <source>cluster B&apos;s link rate, as tc tbf reads it (default 100mbit)</source>
        <translation>集群 B 的链路速率，按 tc tbf 的写法（默认 100mbit）</translation>
    </message>
    <message>
        <source>print the trainings&apos; and probes&apos; output on stderr</source>
        <translation>在 stderr 上打印训练和探针的输出</translation>
    </message>
    <message>
        <source>takes no arguments besides its options</source>
        <translation>除选项外不接受参数</translation>
    </message>
    <message>
        <source>writes its own project: give it with -o FILE, not --project or --demo</source>
        <translation>它写入自己的项目：用 -o FILE 指定，而不是 --project 或 --demo</translation>
    </message>
    <message>
        <source>--cluster-b-rate: %1</source>
        <translation>--cluster-b-rate：%1</translation>
    </message>
    <message>
        <source>--report needs a file name</source>
        <translation>--report 需要一个文件名</translation>
    </message>
    <message>
        <source>--report: this moewb was built without the report (MOEWB_WITH_GUI=OFF)</source>
        <translation>--report：此 moewb 构建时未包含报告（MOEWB_WITH_GUI=OFF）</translation>
    </message>
    <message>
        <source>reference: %1 % %2</source>
        <translation>reference：%1 % %2</translation>
    </message>
    <message>
        <source>interrupted: cancelling (the trainings and probes are being stopped)</source>
        <translation>已中断：正在取消（正在停止训练和探针）</translation>
    </message>
    <message>
        <source>moewb: reference cancelled; nothing was kept</source>
        <translation>moewb：reference 已取消；未保留任何内容</translation>
    </message>
    <message>
        <source>moewb: reference: %1</source>
        <translation>moewb：reference：%1</translation>
    </message>
    <message>
        <source>Project: %1</source>
        <translation>项目：%1</translation>
    </message>
    <message>
        <source>Measurements: %1</source>
        <translation>测量数据：%1</translation>
    </message>
    <message>
        <source>locked</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <source>Stage %1: %2 (overridden to go on; the stop stays on record)</source>
        <translation>阶段 %1：%2（已覆盖以继续；该停止结论仍留档）</translation>
    </message>
    <message>
        <source>Stage %1: %2</source>
        <translation>阶段 %1：%2</translation>
    </message>
    <message>
        <source>Stage 4 was not measured: %1</source>
        <translation>阶段 4 未测量：%1</translation>
    </message>
    <message>
        <source>Report: %1</source>
        <translation>报告：%1</translation>
    </message>
    <message>
        <source>Took %1 s. Open it: moe-workbench %2</source>
        <translation>用时 %1 秒。打开它：moe-workbench %2</translation>
    </message>
    <message>
        <source>measure the four-stage method on this computer (tiny trainings, local probe ranks)</source>
        <translation>在本机上测量四阶段方法（微型训练、本地探针进程）</translation>
    </message>
    <message>
        <source>ssh (default), mpirun, slurm or local (this computer; the default for a local cluster)</source>
        <translation>ssh（默认）、mpirun、slurm 或 local（本机；本地集群的默认值）</translation>
    </message>
    <message>
        <source>--launcher must be ssh, mpirun, slurm or local, not &quot;%1&quot;</source>
        <translation>--launcher 必须是 ssh、mpirun、slurm 或 local，而不是“%1”</translation>
    </message>
    <message>
        <source>No saved verdict yet.</source>
        <translation>尚无保存的判定。</translation>
    </message>
    <message>
        <source>Saved verdict: %1, decided %2.</source>
        <translation>已保存的判定：%1，判定于 %2。</translation>
    </message>
    <message>
        <source>Overridden by %1, given on older data.</source>
        <translation>由 %1 豁免，依据的是较旧的数据。</translation>
    </message>
    <message>
        <source>Overridden by %1.</source>
        <translation>由 %1 豁免。</translation>
    </message>
    <message>
        <source>Re-evaluate: moewb stage %1</source>
        <translation>重新评估：moewb stage %1</translation>
    </message>
    <message>
        <source>show the tables and what the gate would say now, and whether the saved verdict has new data since; nothing is saved (a locked stage: no verdict)</source>
        <translation>显示表格和门控此刻会给出的结论，以及已保存的判定之后是否有新数据；不保存任何内容（锁定的阶段：无判定）</translation>
    </message>
    <message>
        <source>Preview: not saved.</source>
        <translation>预览：未保存。</translation>
    </message>
    <message>
        <source>the four stages&apos; saved verdicts and overrides, and new data since each verdict</source>
        <translation>四个阶段已保存的判定与豁免，以及各判定之后的新数据</translation>
    </message>
    <message>
        <source>not applicable</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>not logged</source>
        <translation>未记录</translation>
    </message>
    <message numerus="yes">
        <source>Run %1, steps %2-%3: %4 layers × %5 experts over %6 GPUs (%7 nodes), %n redundant slot(s) per GPU, %8 policy.</source>
        <translation>
            <numerusform>运行 %1,第 %2-%3 步：%4 层 × %5 个专家，分布在 %6 个 GPU（%7 个节点）上，每个 GPU %n 个冗余槽位，%8策略。</numerusform>
        </translation>
    </message>
    <message>
        <source>Preview, no verdict: %1</source>
        <translation>预览，不下结论：%1</translation>
    </message>
    <message>
        <source>this computer: %1</source>
        <translation>本机:%1</translation>
    </message>
    <message>
        <source>--gpus: give a whole number &gt;= 0</source>
        <translation>--gpus:请给出 &gt;= 0 的整数</translation>
    </message>
    <message>
        <source>--netns-rate: give a rate, e.g. 200mbit</source>
        <translation>--netns-rate:请给出速率,例如 200mbit</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>rank %1 (node %2, local rank %3)</source>
        <translation>rank %1（节点 %2，本地 rank %3）</translation>
    </message>
    <message>
        <source>only this profiled step (ProfilerStep#N)</source>
        <translation>只看这一个被剖析的步（ProfilerStep#N）</translation>
    </message>
    <message>
        <source>a run imported with its profiler traces</source>
        <translation>连同其性能剖析轨迹一起导入的运行</translation>
    </message>
    <message>
        <source>give one run</source>
        <translation>请给出一个运行</translation>
    </message>
    <message>
        <source>--step takes a step number ≥ 0</source>
        <translation>--step 只接受 ≥ 0 的步号</translation>
    </message>
    <message>
        <source>no run named %1</source>
        <translation>没有名为 %1 的运行</translation>
    </message>
    <message>
        <source>run %1 has no profiler traces: import the ranks&apos; trace files with the run (moewb import torch_profile/ … --run %1, or --into %1 for a run without them)</source>
        <translation>运行 %1 没有性能剖析轨迹：请把各 rank 的轨迹文件与该运行一起导入（moewb import torch_profile/ … --run %1；对尚无轨迹的运行用 --into %1）</translation>
    </message>
    <message>
        <source>run %1 has no profiled step %2 (steps: %3)</source>
        <translation>运行 %1 没有被剖析的第 %2 步（已有的步：%3）</translation>
    </message>
    <message numerus="yes">
        <source>Run %1: profiler traces of %n rank(s)</source>
        <translation>
            <numerusform>运行 %1：%n 个 rank 的性能剖析轨迹</numerusform>
        </translation>
    </message>
    <message>
        <source> of %1 (the busiest device is the busiest among the ranks traced)</source>
        <translation>（共 %1 个；最忙设备指已记录轨迹的 rank 中最忙的那个）</translation>
    </message>
    <message>
        <source>Step %1: busiest %2 at %3 of its step; the mean device %4; the others wait %5 ms per step for it</source>
        <translation>第 %1 步：最忙的是 %2，占其整步时间的 %3；平均设备 %4；其余设备每步为它等待 %5 ms</translation>
    </message>
    <message>
        <source>Step %1: not recorded by every traced rank</source>
        <translation>第 %1 步：并非每个已记录轨迹的 rank 都记录了这一步</translation>
    </message>
    <message>
        <source>STEP ms</source>
        <translation>步长 ms</translation>
    </message>
    <message>
        <source>COMPUTE</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>A2A</source>
        <translation>A2A</translation>
    </message>
    <message>
        <source>A2A WAIT</source>
        <translation>A2A 等待</translation>
    </message>
    <message>
        <source>OTHER COMM</source>
        <translation>其他通信</translation>
    </message>
    <message>
        <source>ITS WAIT</source>
        <translation>其等待</translation>
    </message>
    <message>
        <source>EXPOSED</source>
        <translation>暴露通信</translation>
    </message>
    <message>
        <source>IDLE</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>BUSY</source>
        <translation>忙碌</translation>
    </message>
    <message numerus="yes">
        <source>Over %n step(s): busiest-device share %1, the mean device %2; imbalance %3 ms per step.</source>
        <translation>
            <numerusform>在 %n 步中：最忙设备占比 %1，平均设备 %2；不均衡代价每步 %3 ms。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 busiest in %n step(s)</source>
        <translation>
            <numerusform>%1 在 %n 步中最忙</numerusform>
        </translation>
    </message>
    <message>
        <source>Stragglers: %1</source>
        <translation>拖后腿的 rank：%1</translation>
    </message>
    <message>
        <source>The training&apos;s all-to-all against stage 1:</source>
        <translation>训练中的 all-to-all 与阶段 1 基线对比：</translation>
    </message>
    <message>
        <source>PER RANK</source>
        <translation>每 rank</translation>
    </message>
    <message>
        <source>CALLS</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>TRAINING</source>
        <translation>训练中</translation>
    </message>
    <message>
        <source>STAGE 1</source>
        <translation>阶段 1</translation>
    </message>
    <message>
        <source>SHARE</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>NOTE</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>where each profiled step&apos;s time went, per rank, from the run&apos;s profiler traces: the busiest device&apos;s share, the stragglers, the all-to-all against stage 1</source>
        <translation>根据运行的性能剖析轨迹，逐 rank 说明每个被剖析步的时间去向：最忙设备占比、拖后腿的 rank、all-to-all 与阶段 1 的对比</translation>
    </message>
    <message>
        <source> (traces; mean device %1)</source>
        <translation>（轨迹；平均设备 %1）</translation>
    </message>
    <message>
        <source>console logs: refuse a file at its first damaged line (default: keep the readable fields of damaged lines and list them in the plan)</source>
        <translation>控制台日志：在第一处损坏的行拒绝整个文件（默认：保留损坏行中可读的字段，并在导入计划中列出这些行）</translation>
    </message>
    <message>
        <source>with --step: the step&apos;s timeline per rank (the intervals, in ns from the step&apos;s start)</source>
        <translation>与 --step 一起用：该步每个 rank 的时间线（区间，以从步开始起的纳秒计）</translation>
    </message>
    <message>
        <source>--timeline needs --step N</source>
        <translation>--timeline 需要 --step N</translation>
    </message>
    <message>
        <source>run %1 was imported before timelines were kept: import its traces again, into a new run, to keep them</source>
        <translation>运行 %1 是在保存时间线之前导入的：请把它的 trace 重新导入为一个新运行，以保存时间线</translation>
    </message>
    <message>
        <source>run %1 keeps the timelines of its first %2 profiled steps (%3 to %4), not of step %5</source>
        <translation>运行 %1 只保存了前 %2 个剖析步（%3 到 %4）的时间线，没有第 %5 步的</translation>
    </message>
    <message>
        <source>Timeline (ms from the step&apos;s start, on the ranks&apos; common clock):</source>
        <translation>时间线（从步开始起的毫秒数，各 rank 的共同时钟）：</translation>
    </message>
    <message>
        <source>FROM</source>
        <translation>起</translation>
    </message>
    <message>
        <source>TO</source>
        <translation>止</translation>
    </message>
    <message>
        <source>INTERVALS</source>
        <translation>区间数</translation>
    </message>
    <message>
        <source>WAITING</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>LEFT OUT</source>
        <translation>略去</translation>
    </message>
    <message>
        <source>(--json prints each interval: class, kernel, group, bytes, seq)</source>
        <translation>（--json 会打印每个区间：类别、kernel、进程组、字节数、seq）</translation>
    </message>
    <message>
        <source>moewb: to keep its data without them: moewb project clean %1 -o CLEAN.moewb (a new file with moewb&apos;s schema and only the known rows, each checked)</source>
        <translation>moewb: 若要保留其数据而去掉这些对象：moewb project clean %1 -o CLEAN.moewb（一个使用 moewb schema 的新文件，只含已知的行，逐行检查）</translation>
    </message>
    <message>
        <source>PATH is a folder of profiler traces on this cluster&apos;s shared file system: digest them on its nodes and bring back only the per-step digests</source>
        <translation>PATH 是该集群共享文件系统上的 profiler trace 文件夹：在其节点上做摘要，只取回每步摘要</translation>
    </message>
    <message>
        <source>with --on-cluster: trust unknown host keys and record them in ~/.ssh/known_hosts (default: refuse them)</source>
        <translation>与 --on-cluster 一起使用：信任未知主机密钥并记入 ~/.ssh/known_hosts（默认：拒绝）</translation>
    </message>
    <message>
        <source>with --on-cluster: the probe bundle directory (it holds moe-digest)</source>
        <translation>与 --on-cluster 一起使用：probe 包目录（其中有 moe-digest）</translation>
    </message>
    <message>
        <source>--on-cluster takes one PATH, the traces&apos; folder as the nodes see it, and makes a new run (not with --into or --format)</source>
        <translation>--on-cluster 只接受一个 PATH（节点上看到的 trace 文件夹），并新建一个运行（不能与 --into 或 --format 同用）</translation>
    </message>
    <message>
        <source>no cluster named %1 in %2</source>
        <translation>%2 中没有名为 %1 的集群</translation>
    </message>
    <message>
        <source>cluster %1 is this computer: import the folder itself, without --on-cluster</source>
        <translation>集群 %1 就是本机：请直接导入该文件夹，不要加 --on-cluster</translation>
    </message>
    <message numerus="yes">
        <source>traces digested on cluster %1 (%n node(s)): only the per-step digests were brought back</source>
        <translation>
            <numerusform>trace 已在集群 %1（%n 个节点）上摘要：只取回了每步摘要</numerusform>
        </translation>
    </message>
    <message>
        <source>the project file to clean (default: --project); it is only read</source>
        <translation>要清理的项目文件（默认：--project）；只读取，不修改</translation>
    </message>
    <message>
        <source>the clean copy to write (must not exist)</source>
        <translation>要写入的干净副本（不得已存在）</translation>
    </message>
    <message>
        <source>expects at most one IN, got %1</source>
        <translation>最多接受一个 IN，实际给了 %1 个</translation>
    </message>
    <message>
        <source>name the project to clean (IN, or --project)</source>
        <translation>请指定要清理的项目（IN 或 --project）</translation>
    </message>
    <message>
        <source>needs -o OUT, the clean copy to write</source>
        <translation>需要 -o OUT，即要写入的干净副本</translation>
    </message>
    <message>
        <source>OUT must be another file than IN</source>
        <translation>OUT 必须是与 IN 不同的文件</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %1 (schema %2) from %3 (schema %4): %n row(s) copied</source>
        <translation>
            <numerusform>已从 %3（schema %4）写入 %1（schema %2）：复制 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n skipped.</source>
        <translation>
            <numerusform>，跳过 %n 行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Left out (moewb did not create them, or they were altered):</source>
        <translation>已排除（并非 moewb 创建，或已被篡改）：</translation>
    </message>
    <message>
        <source>Rows per table (copied, skipped):</source>
        <translation>各表行数（已复制，已跳过）：</translation>
    </message>
    <message>
        <source>not read: %1</source>
        <translation>未读取：%1</translation>
    </message>
    <message>
        <source>skipped %1</source>
        <translation>已跳过 %1</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more skipped</source>
        <translation>
            <numerusform>… 另有 %n 行被跳过</numerusform>
        </translation>
    </message>
    <message>
        <source>write a clean copy of a project that was refused for objects moewb did not create: moewb&apos;s schema, only the known tables&apos; rows, each checked</source>
        <translation>为因含有非 moewb 创建的对象而被拒绝的项目写一个干净副本：使用 moewb 的 schema，只含已知表的行，逐行检查</translation>
    </message>
    <message>
        <source>… and %1 more reasons (moewb --json lists them all).</source>
        <translation>… 另有 %1 条原因(moewb --json 列出全部)。</translation>
    </message>
    <message>
        <source>State: %1</source>
        <translation>状态:%1</translation>
    </message>
    <message>
        <source>Stage %1&apos;s override is withdrawn: the stop is in force again (the override stays on record for the report). State: %2.</source>
        <translation>阶段 %1 的豁免已撤回:停止结论重新生效(豁免仍留档并写入报告)。状态:%2。</translation>
    </message>
    <message>
        <source>take back the override in effect (it stays on record; the stop is in force again)</source>
        <translation>撤回生效的豁免(豁免仍留档;停止结论重新生效)</translation>
    </message>
    <message>
        <source>Not read (the run is left out): run %1: %2%3</source>
        <translation>未读取（该运行已略去）：运行 %1：%2%3</translation>
    </message>
    <message numerus="yes">
        <source> (and %n more part(s) of its expert load)</source>
        <translation>
            <numerusform>（其专家负载另有 %n 处）</numerusform>
        </translation>
    </message>
    <message>
        <source>nccl-tests text: the traffic matrix alltoallv_perf read (NCCL_TESTS_ALLTOALLV_MATRIX_FILE), read by its rules: the bytes per rank of rows printed without NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1, checked against the summary where it was printed</source>
        <translation>nccl-tests 文本：alltoallv_perf 读取的流量矩阵（NCCL_TESTS_ALLTOALLV_MATRIX_FILE），按它的规则读取：为未用 NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1 打印的行给出每个 rank 的字节数，有汇总时与汇总核对</translation>
    </message>
    <message>
        <source>with --alltoallv-matrix: the NCCL_TESTS_ALLTOALLV_MATRIX_SCALE the run had (default 1)</source>
        <translation>与 --alltoallv-matrix 一起使用：该次运行的 NCCL_TESTS_ALLTOALLV_MATRIX_SCALE（默认 1）</translation>
    </message>
    <message>
        <source>--alltoallv-scale goes with --alltoallv-matrix</source>
        <translation>--alltoallv-scale 需与 --alltoallv-matrix 一起使用</translation>
    </message>
    <message>
        <source>--alltoallv-scale must be a number, as alltoallv_perf reads NCCL_TESTS_ALLTOALLV_MATRIX_SCALE, not &quot;%1&quot;</source>
        <translation>--alltoallv-scale 必须是一个数（按 alltoallv_perf 读取 NCCL_TESTS_ALLTOALLV_MATRIX_SCALE 的方式），而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>write the dispatch matrix to FILE, in the format --format names</source>
        <translation>把 dispatch 矩阵写入 FILE，格式由 --format 指定</translation>
    </message>
    <message>
        <source>the format -o writes: probe (moe-probe&apos;s --pattern matrix:FILE; default) or nccl-tests-matrix (nccl-tests&apos; alltoallv_perf, NCCL_TESTS_ALLTOALLV_MATRIX_FILE; the command lines to run are printed)</source>
        <translation>-o 写出的格式：probe（moe-probe 的 --pattern matrix:FILE；默认）或 nccl-tests-matrix（nccl-tests 的 alltoallv_perf，NCCL_TESTS_ALLTOALLV_MATRIX_FILE；并打印要运行的命令行）</translation>
    </message>
    <message>
        <source>with --format nccl-tests-matrix: the matrix&apos;s mean row sum (the bytes per rank a uniform run of the same size sends), a multiple of 16: bytes, or a number followed by K, M or G; default: the micro-batch&apos;s own, rounded to a multiple of 16 x ranks</source>
        <translation>与 --format nccl-tests-matrix 一起使用：矩阵的平均行和（同样大小的均匀运行中每个 rank 发送的字节数），16 的倍数：字节数，或数字后跟 K、M 或 G；默认：该 micro-batch 自身的值，取整到 16 x rank 数的倍数</translation>
    </message>
    <message>
        <source>--format must be probe or nccl-tests-matrix, not &quot;%1&quot;</source>
        <translation>--format 必须是 probe 或 nccl-tests-matrix，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>--format nccl-tests-matrix needs -o FILE</source>
        <translation>--format nccl-tests-matrix 需要 -o FILE</translation>
    </message>
    <message>
        <source>--bytes-per-rank goes with --format nccl-tests-matrix</source>
        <translation>--bytes-per-rank 需与 --format nccl-tests-matrix 一起使用</translation>
    </message>
    <message>
        <source>--bytes-per-rank must be a positive multiple of 16 bytes (alltoallv_perf rounds every value down to 16 bytes), not &quot;%1&quot;</source>
        <translation>--bytes-per-rank 必须是 16 字节的正整数倍（alltoallv_perf 会把每个值向下取整到 16 字节），而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>Dispatch matrix written to %1 for nccl-tests&apos; alltoallv_perf (numbers only, every value a multiple of 16 bytes): %2 bytes per rank (%3, the mean row sum; the micro-batch&apos;s own is %4), the busiest rank %5 moving %6 bytes (%7).</source>
        <translation>已为 nccl-tests 的 alltoallv_perf 把 dispatch 矩阵写入 %1（只有数字，每个值都是 16 字节的倍数）：每个 rank %2 字节（%3，平均行和；该 micro-batch 自身为 %4），最忙的 rank %5 传输 %6 字节（%7）。</translation>
    </message>
    <message numerus="yes">
        <source>Measure it with nccl-tests 2.19 or later on %n rank(s), one GPU each (the file must be readable at this path on every node):</source>
        <translation>
            <numerusform>用 nccl-tests 2.19 或更新版本在 %n 个 rank 上测量，每个 rank 一块 GPU（每个节点都必须能在此路径读到该文件）：</numerusform>
        </translation>
    </message>
    <message>
        <source>and the uniform all-to-all of the same bytes per rank:</source>
        <translation>以及每个 rank 字节数相同的均匀 all-to-all：</translation>
    </message>
    <message>
        <source>Note: alltoall_perf rounds each peer&apos;s share down to 16 bytes, so at %1 bytes per rank (not a multiple of 16 x %2) it measures %3; choose --bytes-per-rank a multiple of %4.</source>
        <translation>注意：alltoall_perf 会把每个对端的份额向下取整到 16 字节，因此在每个 rank %1 字节（不是 16 x %2 的倍数）时它测量的是 %3；请把 --bytes-per-rank 取为 %4 的倍数。</translation>
    </message>
    <message>
        <source>Then: moewb import alltoall.log alltoallv.log; moewb traffic compare alltoall alltoallv (docs/traffic.md).</source>
        <translation>然后：moewb import alltoall.log alltoallv.log；moewb traffic compare alltoall alltoallv（docs/traffic.md）。</translation>
    </message>
    <message>
        <source>the all-to-all a run&apos;s measured routing causes: dispatch bytes per rank pair, written for the probe or for nccl-tests&apos; alltoallv_perf</source>
        <translation>一次运行实测路由造成的 all-to-all：每对 rank 之间的 dispatch 字节数，可写给 probe 或 nccl-tests 的 alltoallv_perf</translation>
    </message>
    <message>
        <source> measured (overload factor)</source>
        <translation> 实测（过载因子）</translation>
    </message>
    <message>
        <source>in the unit threshold list shows (5%, 1.6x, 500), or the stored number (0.05 for 5%)</source>
        <translation>使用 threshold list 显示的单位（5%、1.6x、500），或存储的数值（5% 即 0.05）</translation>
    </message>
    <message>
        <source>the value must be a finite number in the threshold&apos;s unit (e.g. %1), not &quot;%2&quot;</source>
        <translation>取值必须是该阈值单位下的有限数值（例如 %1），而不是“%2”</translation>
    </message>
</context>
<context>
    <name>Reference</name>
    <message>
        <source>MOEWB_REFERENCE_DIR=%1 holds no reference_train.py</source>
        <translation>MOEWB_REFERENCE_DIR=%1 中没有 reference_train.py</translation>
    </message>
    <message>
        <source>reference_train.py not found (looked in %1); set MOEWB_REFERENCE_DIR</source>
        <translation>未找到 reference_train.py（查找过 %1）；请设置 MOEWB_REFERENCE_DIR</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>training %1: %2</source>
        <translation>训练 %1：%2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>the %1 training failed (exit %2): %3</source>
        <translation>%1 训练失败（退出码 %2）：%3</translation>
    </message>
    <message>
        <source>stage 1 on %1: %2</source>
        <translation>%1 上的阶段 1：%2</translation>
    </message>
    <message>
        <source>stage 1 on cluster %1 failed: %2</source>
        <translation>集群 %1 上的阶段 1 失败：%2</translation>
    </message>
    <message>
        <source>no project file given</source>
        <translation>未给出项目文件</translation>
    </message>
    <message>
        <source>%1 is a folder, not a project file</source>
        <translation>%1 是文件夹，不是项目文件</translation>
    </message>
    <message>
        <source>%1 already exists; not replaced (--force replaces it)</source>
        <translation>%1 已存在；未替换（--force 可替换）</translation>
    </message>
    <message>
        <source>%1 holds no reference_train.py</source>
        <translation>%1 中没有 reference_train.py</translation>
    </message>
    <message>
        <source>%1 not found or not executable: the trainings need a Python with torch (Debian: apt install python3-torch; or set MOEWB_PYTHON)</source>
        <translation>%1 不存在或不可执行：训练需要带 torch 的 Python（Debian：apt install python3-torch；或设置 MOEWB_PYTHON）</translation>
    </message>
    <message>
        <source>the reference needs at least 2 ranks</source>
        <translation>参考评估至少需要 2 个进程</translation>
    </message>
    <message>
        <source>cluster B was left out (--no-cluster-b).</source>
        <translation>集群 B 被略去（--no-cluster-b）。</translation>
    </message>
    <message>
        <source>a second cluster on this computer needs network namespaces joined by shaped links, and %1</source>
        <translation>在本机上构造第二个集群需要由限速链路连接的网络命名空间，而%1</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>cannot remove the old measurement folder %1</source>
        <translation>无法删除旧的测量数据文件夹 %1</translation>
    </message>
    <message>
        <source>cannot create a temporary file beside %1: %2</source>
        <translation>无法在 %1 旁创建临时文件：%2</translation>
    </message>
    <message>
        <source>training %1</source>
        <translation>训练 %1</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1: not a JSON object: %2</source>
        <translation>%1：不是 JSON 对象：%2</translation>
    </message>
    <message>
        <source>importing %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <source>no MoE config record came out of the trainings</source>
        <translation>训练没有产生 MoE 配置记录</translation>
    </message>
    <message>
        <source>Reference evaluation on this computer: it goes on past this stop so that every stage is shown on measured data. In a real evaluation, act on the stop before going on.</source>
        <translation>本机上的参考评估：越过此停止结论继续，以便每个阶段都在实测数据上展示。在真实评估中，请先处理停止结论再继续。</translation>
    </message>
    <message>
        <source>evaluating stage %1</source>
        <translation>评估阶段 %1</translation>
    </message>
    <message>
        <source>Stage 4 was not measured: %1</source>
        <translation>阶段 4 未测量：%1</translation>
    </message>
    <message>
        <source>cannot move the finished project into place: %1</source>
        <translation>无法把完成的项目移动到目标位置：%1</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Measured on this computer: CPU, gloo, tiny model — the method is real, the scale is not.</source>
        <translation>在本机上实测：CPU、gloo、微型模型——方法是真实的，规模不是。</translation>
    </message>
    <message>
        <source>To measure stage 4, add a real second cluster and its baseline: moewb cluster add NAME --node HOST,...; moewb run stage1 --cluster NAME --record RECORD; moewb stage 4.</source>
        <translation>要测量阶段 4，请添加一个真实的第二集群及其基线：moewb cluster add NAME --node HOST,...；moewb run stage1 --cluster NAME --record RECORD；moewb stage 4。</translation>
    </message>
</context>
</TS>
