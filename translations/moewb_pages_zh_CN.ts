<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>moewb::gui::CostExplorerPage</name>
    <message>
        <source>bf16 mixed precision (bf16 weights and gradients, fp32 master weights)</source>
        <translation>bf16 混合精度（bf16 权重和梯度，fp32 主权重）</translation>
    </message>
    <message>
        <source>fp32 (weights, gradients, all-to-all in fp32; no master copy)</source>
        <translation>fp32（权重、梯度和 all-to-all 均为 fp32；无主权重副本）</translation>
    </message>
    <message>
        <source>fp8 all-to-all (bf16 mixed precision, tokens sent in fp8)</source>
        <translation>fp8 all-to-all（bf16 混合精度，token 以 fp8 发送）</translation>
    </message>
    <message>
        <source>Adam (m and v in fp32: 8 bytes per parameter)</source>
        <translation>Adam（m 和 v 为 fp32：每个参数 8 字节）</translation>
    </message>
    <message>
        <source>Adam, distributed optimizer (sharded over data parallel)</source>
        <translation>Adam，分布式优化器（在数据并行副本间切分）</translation>
    </message>
    <message>
        <source>SGD with momentum (4 bytes per parameter)</source>
        <translation>带动量的 SGD（每个参数 4 字节）</translation>
    </message>
    <message>
        <source>The model and its layout</source>
        <translation>模型与并行布局</translation>
    </message>
    <message>
        <source>Layers L</source>
        <translation>层数 L</translation>
    </message>
    <message>
        <source>Transformer layers. Here every layer is an MoE layer: attention, then a router that sends each token to K of E expert FFNs.</source>
        <translation>Transformer 层数。这里每一层都是 MoE 层：先是注意力，再由路由器把每个 token 发给 E 个专家 FFN 中的 K 个。</translation>
    </message>
    <message>
        <source>Hidden size h</source>
        <translation>隐藏维度 h</translation>
    </message>
    <message>
        <source>The width of the token vectors. Attention has about 4·h² parameters per layer, and every token sent to a remote expert carries h numbers.</source>
        <translation>token 向量的宽度。注意力每层约有 4·h² 个参数；每个发往远端专家的 token 都携带 h 个数。</translation>
    </message>
    <message>
        <source>Expert FFN size f</source>
        <translation>专家 FFN 维度 f</translation>
    </message>
    <message>
        <source>The inner width of ONE expert&apos;s feed-forward network. An expert is a small dense FFN with 3·h·f parameters (SwiGLU: gate, up, down). MoE models use many narrow experts.</source>
        <translation>单个专家前馈网络的内部宽度。一个专家就是一个有 3·h·f 个参数的小型稠密 FFN（SwiGLU：gate、up、down）。MoE 模型使用许多窄专家。</translation>
    </message>
    <message>
        <source>Routed experts E</source>
        <translation>路由专家数 E</translation>
    </message>
    <message>
        <source>Experts per MoE layer that tokens are routed to. All E are stored (memory), but each token only computes K of them: E grows the model without growing the compute per token.</source>
        <translation>每个 MoE 层中供 token 路由的专家数。E 个专家全部要存储（占显存），但每个 token 只经过其中 K 个计算：增大 E 能扩大模型，却不增加每个 token 的计算量。</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>Experts every token always goes through (as in DeepSeek-MoE). They count fully in both total and activated parameters, and need no all-to-all.</source>
        <translation>每个 token 都必经的专家（如 DeepSeek-MoE）。它们同时完整计入总参数量和激活参数量，且不需要 all-to-all。</translation>
    </message>
    <message>
        <source>Top-k K</source>
        <translation>Top-K（K）</translation>
    </message>
    <message>
        <source>Routed experts each token is sent to. Compute per token and all-to-all bytes grow with K; memory does not.</source>
        <translation>每个 token 发往的路由专家数。每个 token 的计算量和 all-to-all 字节数随 K 增长，显存占用则不变。</translation>
    </message>
    <message>
        <source>Data parallel DP</source>
        <translation>数据并行 DP</translation>
    </message>
    <message>
        <source>Replicas of the model that each take a share of the batch. Without a distributed optimizer every replica holds full optimizer state.</source>
        <translation>模型副本数，每个副本处理批次的一部分。不使用分布式优化器时，每个副本都持有完整的优化器状态。</translation>
    </message>
    <message>
        <source>Tensor parallel TP</source>
        <translation>张量并行 TP</translation>
    </message>
    <message>
        <source>Each weight matrix is split across TP devices: parameters per device ÷ TP.</source>
        <translation>每个权重矩阵切分到 TP 个设备上：每设备参数量 ÷ TP。</translation>
    </message>
    <message>
        <source>Pipeline parallel PP</source>
        <translation>流水线并行 PP</translation>
    </message>
    <message>
        <source>The layers are split into PP stages: each device holds L/PP layers.</source>
        <translation>各层切分为 PP 个流水线段：每个设备持有 L/PP 层。</translation>
    </message>
    <message>
        <source>Expert parallel EP</source>
        <translation>专家并行 EP</translation>
    </message>
    <message>
        <source>The E experts are spread over EP devices (E/EP each). A token whose expert lives on another device must be sent there and back: the all-to-all. (EP−1)/EP of the assignments leave the device.</source>
        <translation>E 个专家分布在 EP 个设备上（每个设备 E/EP 个）。token 的专家若在另一设备上，就必须发过去再传回来：这就是 all-to-all。有 (EP−1)/EP 的分配会离开本设备。</translation>
    </message>
    <message>
        <source>Micro-batch (sequences)</source>
        <translation>微批次（序列数）</translation>
    </message>
    <message>
        <source>Sequences processed together in one forward/backward. One all-to-all call moves one micro-batch&apos;s tokens, so it sets the message size the stage 1 curve is read at.</source>
        <translation>一次前向/反向中一起处理的序列数。一次 all-to-all 调用传送一个微批次的 token，因此它决定了在阶段 1 曲线上按哪个消息大小读数。</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sequence.</source>
        <translation>每个序列的 token 数。</translation>
    </message>
    <message>
        <source>Global batch (sequences)</source>
        <translation>全局批次（序列数）</translation>
    </message>
    <message>
        <source>Sequences per optimizer step over all replicas: global batch ÷ (DP × micro-batch) micro-batches per step.</source>
        <translation>所有副本在一个优化器步中合计处理的序列数；每步的微批次数为 全局批次 ÷ (DP × 微批次)。</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Bytes per parameter, gradient and master weight, and per number sent by the all-to-all.</source>
        <translation>每个参数、梯度和主权重所占的字节数，以及 all-to-all 发送的每个数所占的字节数。</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Adam keeps two numbers per parameter (m and v), usually in fp32: with the fp32 master copy that is 12 of the 16 bytes per parameter. A distributed optimizer shards them over the data-parallel replicas.</source>
        <translation>Adam 为每个参数保存两个数（m 和 v），通常为 fp32：连同 fp32 主权重副本，占每个参数 16 字节中的 12 字节。分布式优化器把它们切分到各数据并行副本上。</translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation> TFLOP/s</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Achieved compute per device</source>
        <translation>每设备实际算力</translation>
    </message>
    <message>
        <source>What one device really reaches (not the datasheet peak); sets the compute part of the step estimate. Leave &apos;not set&apos; for the all-to-all part only.</source>
        <translation>单个设备实际达到的算力（不是规格表峰值），用于估算步时间中的计算部分。保持“未设置”则只估算 all-to-all 部分。</translation>
    </message>
    <message>
        <source>Where an MoE&apos;s cost comes from</source>
        <translation>MoE 的成本从何而来</translation>
    </message>
    <message>
        <source>A dense model computes with every parameter it stores. An MoE stores E expert FFNs per layer but sends each token through only K of them, so &lt;b&gt;what you store&lt;/b&gt; (memory, optimizer state) and &lt;b&gt;what you compute&lt;/b&gt; (FLOPs per token) come apart — and a new cost appears: moving tokens to the devices that hold their experts (the all-to-all). Move a slider and watch which figures change.</source>
        <translation>稠密模型存储的每个参数都参与计算。MoE 每层存储 E 个专家 FFN，却只让每个 token 经过其中 K 个，于是&lt;b&gt;存储的部分&lt;/b&gt;（显存、优化器状态）与&lt;b&gt;计算的部分&lt;/b&gt;（每个 token 的 FLOPs）不再一致——同时出现一项新成本：把 token 传送到持有其专家的设备上（all-to-all）。拖动滑块，看看哪些数字随之变化。</translation>
    </message>
    <message>
        <source>Parameters: total vs activated</source>
        <translation>参数量：总参数量与激活参数量</translation>
    </message>
    <message>
        <source>Total (stored)</source>
        <translation>总参数量（存储）</translation>
    </message>
    <message>
        <source>Every parameter the model stores: attention, routers, shared experts and all E routed experts of every layer. This sets memory.</source>
        <translation>模型存储的全部参数：每一层的注意力、路由器、共享专家以及全部 E 个路由专家。它决定显存占用。</translation>
    </message>
    <message>
        <source>Activated (per token)</source>
        <translation>激活参数量（每 token）</translation>
    </message>
    <message>
        <source>The parameters one token is computed with: the same, but only K routed experts. Compute per token ≈ 6 × activated FLOPs for training (forward + backward).</source>
        <translation>一个 token 实际参与计算的参数：组成相同，但路由专家只有 K 个。训练时每个 token 的计算量 ≈ 6 × 激活参数量 FLOPs（前向 + 反向）。</translation>
    </message>
    <message>
        <source>Memory per device: parameters, gradients, optimizer state</source>
        <translation>每设备显存：参数、梯度、优化器状态</translation>
    </message>
    <message>
        <source>Model state per device</source>
        <translation>每设备模型状态</translation>
    </message>
    <message>
        <source>What one device must hold besides activations: its share of the parameters (dense part ÷ TP·PP, experts ÷ EP·TP·PP), a gradient for each, and the optimizer&apos;s master weights and state. Experts are the big share of an MoE, so EP is what makes it fit.</source>
        <translation>激活值之外，单个设备必须持有：它分到的那份参数（稠密部分 ÷ TP·PP，专家 ÷ EP·TP·PP）、每个参数的梯度，以及优化器的主权重和状态。专家占 MoE 的大头，所以要靠 EP 才放得下。</translation>
    </message>
    <message>
        <source>All-to-all: moving tokens to their experts</source>
        <translation>All-to-all：把 token 送到它们的专家</translation>
    </message>
    <message>
        <source>Per token per layer</source>
        <translation>每 token 每层</translation>
    </message>
    <message>
        <source>Each token&apos;s hidden vector (h numbers) goes to its K experts (dispatch) and the results come back (combine), in the forward and again in the backward pass: 4 transfers of K·h numbers, of which (EP−1)/EP leave the device. A dense model has none of this.</source>
        <translation>每个 token 的隐藏向量（h 个数）发往它的 K 个专家（分发），结果再传回来（合并），前向传播一次，反向传播再一次：共 4 次传输，每次 K·h 个数，其中 (EP−1)/EP 离开本设备。稠密模型完全没有这部分开销。</translation>
    </message>
    <message>
        <source>Per device per step</source>
        <translation>每设备每步</translation>
    </message>
    <message>
        <source>Per token per layer × the tokens one device processes per step (global batch ÷ DP·TP) × the MoE layers on its pipeline stage (L ÷ PP).</source>
        <translation>每 token 每层的字节数 × 单个设备每步处理的 token 数（全局批次 ÷ DP·TP）× 其流水线段上的 MoE 层数（L ÷ PP）。</translation>
    </message>
    <message>
        <source>Step time estimate</source>
        <translation>步时间估算</translation>
    </message>
    <message>
        <source>All-to-all per step</source>
        <translation>每步 all-to-all</translation>
    </message>
    <message>
        <source>Calls per step × the time of one call, read off this cluster&apos;s stage 1 curve (measured all-to-all time vs message size) at one call&apos;s bytes per rank. Measured, not a datasheet bandwidth: small messages are latency-bound.</source>
        <translation>每步调用次数 × 单次调用耗时；单次耗时按一次调用的每 rank 字节数，从本集群的阶段 1 曲线（实测 all-to-all 耗时随消息大小的变化）上读取。用的是实测值，不是规格表带宽：小消息受延迟限制。</translation>
    </message>
    <message>
        <source>Top-k is larger than the number of experts: computed with K = E.</source>
        <translation>Top-K 大于专家数：按 K = E 计算。</translation>
    </message>
    <message>
        <source>E = %1 experts do not split evenly over EP = %2 devices.</source>
        <translation>E = %1 个专家无法均分到 EP = %2 个设备上。</translation>
    </message>
    <message>
        <source>EP = %1 is larger than DP = %2: expert parallelism is usually carved out of the data-parallel ranks (EP divides DP).</source>
        <translation>EP = %1 大于 DP = %2：专家并行通常从数据并行的 rank 中划分（EP 整除 DP）。</translation>
    </message>
    <message>
        <source>%1 layers do not split evenly into PP = %2 stages.</source>
        <translation>%1 层无法均分为 PP = %2 个流水线段。</translation>
    </message>
    <message>
        <source>The global batch is smaller than DP × micro-batch.</source>
        <translation>全局批次小于 DP × 微批次。</translation>
    </message>
    <message>
        <source>%1  (%2 of the total)</source>
        <translation>%1（占总量的 %2）</translation>
    </message>
    <message>
        <source>Attention %1 per layer · one expert %2 · routed experts %3 of the total (%4) · router %5 per layer. Doubling E doubles the routed experts&apos; memory; doubling K doubles their compute.</source>
        <translation>每层注意力 %1 · 单个专家 %2 · 路由专家 %3，占总量的 %4 · 每层路由器 %5。E 翻倍，路由专家的显存翻倍；K 翻倍，它们的计算量翻倍。</translation>
    </message>
    <message>
        <source>, over which the optimizer state is sharded</source>
        <translation>，优化器状态在这些副本间切分</translation>
    </message>
    <message>
        <source>One dispatch moves %1 per token per layer (K·h·%2 bytes × (EP−1)/EP = %3 remote); dispatch + combine, forward + backward make it ×4. %4 tokens per device per step, %5 MoE layers per stage.%6</source>
        <translation>一次分发在每 token 每层传送 %1（K·h·%2 字节 × (EP−1)/EP，其中 %3 发往远端）；分发 + 合并、前向 + 反向，共 ×4。每设备每步 %4 个 token，每个流水线段 %5 个 MoE 层。%6</translation>
    </message>
    <message>
        <source> With EP = 1 every expert is local: no all-to-all.</source>
        <translation>EP = 1 时所有专家都在本地：没有 all-to-all。</translation>
    </message>
    <message>
        <source>One call moves %1 per rank; %2 calls per step; one call takes %3%4. Compute per step %5; total without overlap %6.</source>
        <translation>一次调用每个 rank 传送 %1；每步调用 %2 次；单次调用耗时 %3%4。每步计算：%5；不计重叠的合计：%6。</translation>
    </message>
    <message>
        <source> (outside the measured sizes: extrapolated)</source>
        <translation>（超出实测的消息大小范围：外推值）</translation>
    </message>
    <message>
        <source>not estimated (set the achieved compute)</source>
        <translation>未估算（请设置实际算力）</translation>
    </message>
    <message>
        <source>not estimated</source>
        <translation>未估算</translation>
    </message>
    <message>
        <source>Uses the measured all-to-all curve of this project&apos;s stage 1 run &quot;%1&quot; (%2 message sizes).</source>
        <translation>使用本项目阶段 1 运行“%1”实测的 all-to-all 曲线（%2 个消息大小）。</translation>
    </message>
    <message>
        <source>This project has no stage 1 run with all-to-all samples: the estimate uses no measured curve, so the all-to-all time is unknown. Run stage 1 (or import its results) to fill it in.</source>
        <translation>本项目没有带 all-to-all 样本的阶段 1 运行：估算不使用实测曲线，因此 all-to-all 时间未知。运行阶段 1（或导入其结果）即可补上。</translation>
    </message>
    <message>
        <source>No project is open: the estimate uses no measured curve, so the all-to-all time is unknown.</source>
        <translation>未打开项目：估算不使用实测曲线，因此 all-to-all 时间未知。</translation>
    </message>
    <message>
        <source>Figures recomputed in %1 ms on the GUI thread; the plots redraw in %2 ms, at most every %3 ms while a slider moves.</source>
        <translation>数字在 GUI 线程上重算用时 %1 ms；图表重绘用时 %2 ms，拖动滑块时最多每 %3 ms 重绘一次。</translation>
    </message>
    <message>
        <source>Uses the all-to-all curve of this project&apos;s stage 1 run &quot;%1&quot; (%2 message sizes), measured with the training&apos;s own routing (%3).</source>
        <translation>使用本项目阶段 1 运行“%1”的 all-to-all 曲线（%2 个消息大小），该曲线按训练自身的路由测得（%3）。</translation>
    </message>
    <message>
        <source>Use the curve measured on this computer (reference project)…</source>
        <translation>使用本机实测的曲线（参考项目）…</translation>
    </message>
    <message>
        <source>Opens the reference evaluation measured on this computer (moewb reference), whose stage 1 curve this page then reads; offers to measure it when there is none.</source>
        <translation>打开在本机上实测的参考评估（moewb reference），本页随后读取其阶段 1 曲线；若尚无该项目，则提议测量它。</translation>
    </message>
    <message>
        <source>Held per device: %1 dense + %2 expert parameters. Parameters %3 · gradients %4 · master weights %5 · optimizer state %6. Each expert has %7 (DP ÷ EP)%8. Activations come on top and depend on the micro-batch and recomputation.</source>
        <translation>每设备持有：稠密参数 %1 + 专家参数 %2。参数 %3 · 梯度 %4 · 主权重 %5 · 优化器状态 %6。每个专家有 %7（DP ÷ EP）%8。激活值另计，取决于微批次大小和重计算。</translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s)</source>
        <translation>
            <numerusform>%n 个副本</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 replicas</source>
        <translation>%1 个副本</translation>
    </message>
    <message>
        <source>Compute per step</source>
        <translation>每步计算</translation>
    </message>
    <message>
        <source>6 × activated parameters × the tokens one device computes per step, at the achieved compute per device set among the inputs (not estimated until it is set).</source>
        <translation>6 × 激活参数量 × 每个设备每步计算的 token 数，按输入中设定的单设备实测算力计算（未设定时不估算）。</translation>
    </message>
    <message>
        <source>No project is open: the inputs are an example (a DeepSeek-MoE-16B-like model). Open a project to start from its config record.</source>
        <translation>未打开项目：输入是一个示例（类似 DeepSeek-MoE-16B 的模型）。打开项目即可从其配置记录出发。</translation>
    </message>
    <message>
        <source>This project has no complete MoE config record with the model and parallel sizes the formulas need: the inputs are an example.</source>
        <translation>本项目没有包含公式所需模型与并行规模的完整 MoE 配置记录：输入是一个示例。</translation>
    </message>
    <message>
        <source> The achieved compute is the median TFLOP/s per device its run &quot;%1&quot; logged.</source>
        <translation> 实测算力取其运行“%1”记录的单设备 TFLOP/s 中位数。</translation>
    </message>
    <message>
        <source> The achieved compute is 6 × the activated parameters × the median tokens/s per device its run &quot;%1&quot; logged.</source>
        <translation> 实测算力为 6 × 激活参数量 × 其运行“%1”记录的单设备 tokens/s 中位数。</translation>
    </message>
    <message>
        <source>Starts from the config record &quot;%1&quot; of this project; change any input to see what it costs.</source>
        <translation>从本项目的配置记录“%1”出发；改动任一输入即可看到它的代价。</translation>
    </message>
    <message>
        <source>set the achieved compute</source>
        <translation>请设定实测算力</translation>
    </message>
</context>
<context>
    <name>moewb::gui::OverrideDialog</name>
    <message>
        <source>Override stage %1&apos;s stop</source>
        <translation>豁免阶段 %1 的停止</translation>
    </message>
    <message>
        <source>Stage %1 stopped. Going on anyway needs a written justification: it is kept with the stop, both go into the report, and stage %2 unlocks.</source>
        <translation>阶段 %1 已停止。若仍要继续，需要书面理由：理由与停止记录一同保存，两者都会写入报告，阶段 %2 随之解锁。</translation>
    </message>
    <message>
        <source>Why may the evaluation go on despite the stop? (required)</source>
        <translation>为什么在停止的情况下评估仍可继续？（必填）</translation>
    </message>
    <message>
        <source>Override</source>
        <translation>豁免</translation>
    </message>
    <message>
        <source>⚠ A justification is required: write why the evaluation may go on despite the stop.</source>
        <translation>⚠ 必须填写理由：写明为什么在停止的情况下评估仍可继续。</translation>
    </message>
    <message>
        <source>&amp;Justification:</source>
        <translation>理由(&amp;J)：</translation>
    </message>
    <message>
        <source>&amp;Decided by:</source>
        <translation>决定人(&amp;D)：</translation>
    </message>
</context>
<context>
    <name>moewb::gui::ResultTable</name>
    <message>
        <source>Click a header to sort; Ctrl+C copies the selected rows as TSV.</source>
        <translation>点击表头排序；Ctrl+C 将选中的行复制为 TSV。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::RoutingLabPage</name>
    <message>
        <source>Routing lab: how routers really balance load</source>
        <translation>路由实验室：路由器实际如何均衡负载</translation>
    </message>
    <message>
        <source>In an MoE layer a router scores every token against every expert and sends it to a few of them. The busiest expert sets the step time (everyone waits for it), so routers are judged by their &lt;b&gt;balance&lt;/b&gt; (MaxVio: how far the busiest expert is above the mean) and by what they give up to get it: assignments &lt;b&gt;dropped&lt;/b&gt; by full experts, or tokens that end up with &lt;b&gt;no expert&lt;/b&gt;. This lab runs three routers on the same synthetic scores.</source>
        <translation>MoE 层中，路由器为每个 token 与每个专家打分，再把 token 发给其中少数几个专家。最忙的专家决定步时间（其他设备都要等它），因此评价路由器要看它的&lt;b&gt;均衡程度&lt;/b&gt;（MaxVio：最忙专家高出均值多少），以及为此付出的代价：被已满专家&lt;b&gt;丢弃&lt;/b&gt;的分配，或最终&lt;b&gt;没有专家&lt;/b&gt;的 token。本实验室在同一组合成打分上运行三种路由器。</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>均匀随机</translation>
    </message>
    <message>
        <source>preferential (+3 on two random experts)</source>
        <translation>有偏好（随机两个专家 +3）</translation>
    </message>
    <message>
        <source>Zipf (+3 on two popular experts)</source>
        <translation>Zipf（两个热门专家 +3）</translation>
    </message>
    <message>
        <source>S = </source>
        <translation>S = </translation>
    </message>
    <message>
        <source>Experts E</source>
        <translation>专家数 E</translation>
    </message>
    <message>
        <source>Routed experts per layer.</source>
        <translation>每层的路由专家数。</translation>
    </message>
    <message>
        <source>Tokens T</source>
        <translation>token 数 T</translation>
    </message>
    <message>
        <source>Tokens in the batch being routed.</source>
        <translation>待路由批次中的 token 数。</translation>
    </message>
    <message>
        <source>Top-k K</source>
        <translation>Top-K（K）</translation>
    </message>
    <message>
        <source>Experts each token asks for. The batch makes K×T assignments, so the fair share (target load) of an expert is K×T/E.</source>
        <translation>每个 token 请求的专家数。整个批次共产生 K×T 个分配，所以每个专家的公平份额（目标负载）是 K×T/E。</translation>
    </message>
    <message>
        <source>Capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <source>Capacity C = factor × K×T/E: the most assignments one expert accepts. Top-K drops what does not fit; Expert-Choice takes exactly C tokens per expert.</source>
        <translation>容量 C = 因子 × K×T/E：单个专家最多接受的分配数。Top-K 丢弃放不下的部分；Expert-Choice 让每个专家恰好取 C 个 token。</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>打分</translation>
    </message>
    <message>
        <source>Zipf exponent</source>
        <translation>Zipf 指数</translation>
    </message>
    <message>
        <source>Larger S: more skew toward expert 0.</source>
        <translation>S 越大，越偏向专家 0。</translation>
    </message>
    <message>
        <source>Random seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Same seed, same scores: every figure but the timings repeats.</source>
        <translation>种子相同，打分就相同：除耗时外，所有数字都能复现。</translation>
    </message>
    <message>
        <source>Bias updates</source>
        <translation>偏置更新次数</translation>
    </message>
    <message>
        <source>Sigmoid + bias learns one bias per expert over this many batches (b_e += u·sign(mean − load_e) after each).</source>
        <translation>Sigmoid + 偏置在这么多个批次中为每个专家学习一个偏置（每个批次之后 b_e += u·sign(mean − load_e)）。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Sweep E = 4…256</source>
        <translation>扫描 E = 4…256</translation>
    </message>
    <message>
        <source>Runs the three routers at E = 4, 8, …, 256 with the same T, K, factor and scores (larger E takes longer).</source>
        <translation>在 E = 4, 8, …, 256 下运行三种路由器，T、K、因子和打分保持不变（E 越大耗时越长）。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>This lab</source>
        <translation>本实验室</translation>
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
        <translation>无专家 token</translation>
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
        <source>ns/token</source>
        <translation>ns/token</translation>
    </message>
    <message>
        <source>&lt;b&gt;MaxVio&lt;/b&gt; = (max load − mean) / mean on the assignments each expert processes. &lt;b&gt;Dropped&lt;/b&gt;: Top-K assignments refused by a full expert (late tokens lose). &lt;b&gt;Without expert&lt;/b&gt;: tokens that got no expert at all and only pass the residual. &lt;b&gt;Entropy&lt;/b&gt; of the load over experts, log2 E when perfectly even. &lt;b&gt;Routing time&lt;/b&gt;: one whole pass, single thread.</source>
        <translation>&lt;b&gt;MaxVio&lt;/b&gt; = (最大负载 − 均值) / 均值，按每个专家处理的分配数计算。&lt;b&gt;丢弃&lt;/b&gt;：被已满专家拒绝的 Top-K 分配（后到的 token 吃亏）。&lt;b&gt;无专家&lt;/b&gt;：完全没有分到专家、只走残差路径的 token。&lt;b&gt;熵&lt;/b&gt;：负载在各专家间分布的熵，完全均匀时为 log2 E。&lt;b&gt;路由耗时&lt;/b&gt;：完整路由一遍，单线程。</translation>
    </message>
    <message>
        <source>scores</source>
        <translation>打分</translation>
    </message>
    <message>
        <source>drops</source>
        <translation>丢弃数</translation>
    </message>
    <message>
        <source>ms/token</source>
        <translation>ms/token</translation>
    </message>
    <message>
        <source>Where and why the two tables differ</source>
        <translation>两张表哪里不同，为什么</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Cannot run: %1.</source>
        <translation>无法运行：%1。</translation>
    </message>
    <message>
        <source>Sweeping E = 4…256 (T = %1)…</source>
        <translation>正在扫描 E = 4…256（T = %1）…</translation>
    </message>
    <message>
        <source>Routing %1 tokens to %2 experts…</source>
        <translation>正在把 %1 个 token 路由到 %2 个专家…</translation>
    </message>
    <message>
        <source>Cancelled. The tables and plots still show the last finished run.</source>
        <translation>已取消。表格和图表仍显示上一次完成的运行。</translation>
    </message>
    <message>
        <source>Sweep done: E = 4…256, T = %1, K = %2, factor %3, %4 scores.</source>
        <translation>扫描完成：E = 4…256，T = %1，K = %2，因子 %3，打分方式：%4。</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <source>E = %1, T = %2, K = %3, factor %4 → target load K×T/E = %5, capacity %6; %7 scores, seed %8.</source>
        <translation>E = %1，T = %2，K = %3，因子 %4 → 目标负载 K×T/E = %5，容量 %6；打分方式：%7，随机种子 %8。</translation>
    </message>
    <message>
        <source>preferential</source>
        <translation>有偏好</translation>
    </message>
    <message>
        <source>Sigmoid</source>
        <translation>Sigmoid 门控</translation>
    </message>
    <message>
        <source>zipf:%1</source>
        <translation>Zipf（S = %1）</translation>
    </message>
    <message>
        <source>uniform: no expert is preferred. preferential: +3 on two random experts per token (the reference study&apos;s) — still balanced on average. Zipf: +3 on two experts drawn with P(e) ∝ (e+1)^−S, so low-numbered experts are popular: real imbalance.</source>
        <translation>均匀随机：不偏好任何专家。有偏好：每个 token 随机选两个专家 +3（参考研究的做法）——平均而言仍是均衡的。Zipf：按 P(e) ∝ (e+1)^−S 抽两个专家 +3，编号小的专家更热门：这才是真正的不均衡。</translation>
    </message>
    <message>
        <source>The reference study&apos;s setting (E=8, T=262144, K=2, factor 1.12)</source>
        <translation>参考研究的设置（E=8, T=262144, K=2, 因子 1.12）</translation>
    </message>
    <message>
        <source>Sets the setting of the routing study this method follows (uniform scores, random seed 1) and runs the three routers.</source>
        <translation>采用本方法所依据的路由研究的设置（均匀随机打分，随机种子 1），并运行三种路由器。</translation>
    </message>
    <message>
        <source>Not run yet. Start with the reference study&apos;s setting.</source>
        <translation>尚未运行。可先从参考研究的设置开始。</translation>
    </message>
    <message>
        <source>The reference study&apos;s published table</source>
        <translation>参考研究发表的表格</translation>
    </message>
    <message>
        <source>&lt;ol&gt;&lt;li&gt;&lt;b&gt;Sigmoid 0.0001 there, ~0.03 here.&lt;/b&gt; The study never assigns a token: it adds fractional probabilities K·p&lt;sub&gt;e&lt;/sub&gt;/Σp to every expert, so its “load” is an average whose noise has vanished. With real (discrete) top-K assignments the load has Top-K&apos;s sampling noise plus the ±u jitter of the bias update. On balanced scores the bias does not beat plain Top-K; with a real skew (Zipf) it removes the imbalance without dropping anything, where Top-K drops.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Expert-Choice equal to Top-K there.&lt;/b&gt; The study&apos;s script has no Expert-Choice; it prints Top-K&apos;s numbers. Implemented, Expert-Choice always has MaxVio 0 and instead leaves tokens with no expert (about 7 % with uniform scores even at factor 1.12).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Top-K 0.0083 vs 0.004.&lt;/b&gt; Different random scores (the study fixes no random seed) and the study&apos;s MaxVio also counts the most under-loaded expert. Both say: with a 12 % margin nothing is dropped.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Timing.&lt;/b&gt; The study timed a Python loop per token; here one whole pass is timed in C++, and only the Top-K path is optimized, so the timing ratios say nothing about the algorithms.&lt;/li&gt;&lt;/ol&gt;</source>
        <translation>&lt;ol&gt;&lt;li&gt;&lt;b&gt;Sigmoid：那边 0.0001，这里约 0.03。&lt;/b&gt;参考研究从不真正分配 token：它把小数概率 K·p&lt;sub&gt;e&lt;/sub&gt;/Σp 加到每个专家上，所以它的“负载”是一个噪声已被平均掉的均值。用真实（离散）的 Top-K 分配时，负载带有 Top-K 的采样噪声，再加上偏置更新的 ±u 抖动。打分均衡时，偏置并不比普通 Top-K 强；打分确实倾斜（Zipf）时，它能消除不均衡且不丢弃任何分配，而 Top-K 会丢弃。&lt;/li&gt;&lt;li&gt;&lt;b&gt;那边 Expert-Choice 与 Top-K 相同。&lt;/b&gt;参考研究的脚本里没有 Expert-Choice，打印的是 Top-K 的数字。真正实现后，Expert-Choice 的 MaxVio 总是 0，代价是让一部分 token 没有专家（均匀随机打分下，即使因子为 1.12 也约有 7%）。&lt;/li&gt;&lt;li&gt;&lt;b&gt;Top-K：0.0083 对 0.004。&lt;/b&gt;随机打分不同（参考研究没有固定随机种子），而且 参考研究的 MaxVio 还计入了负载最低的专家。两边结论一致：留 12% 余量时没有分配被丢弃。&lt;/li&gt;&lt;li&gt;&lt;b&gt;耗时。&lt;/b&gt;参考研究 计时的是逐 token 的 Python 循环；这里用 C++ 对完整的一遍计时，而且只优化了 Top-K 路径，所以耗时之比说明不了算法的优劣。&lt;/li&gt;&lt;/ol&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;What it shows:&lt;/b&gt; each router&apos;s MaxVio as the number of experts grows from 4 to 256, with T, K, the capacity factor and the scores kept. Top-K never exceeds its capacity (%1 × the fair share K×T/E, the rest is dropped); with balanced scores only the chance spread of a finite batch lifts its busiest expert as each expert&apos;s share shrinks. Expert-Choice is 0 by construction.</source>
        <translation>&lt;b&gt;图中内容：&lt;/b&gt;专家数从 4 增加到 256 时各路由器的 MaxVio，T、K、容量因子和打分保持不变。Top-K 从不超过其容量（公平份额 K×T/E 的 %1 倍，其余被丢弃）；打分均衡时，随着每个专家的份额变小，只有有限批次的随机波动会抬高最忙的专家。Expert-Choice 按构造为 0。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why Sigmoid + bias climbs&lt;/b&gt; (to about 1.1 at E = 256 in the method&apos;s setting): a token&apos;s K experts come from a band of affinities at the top that narrows like K/E, while every bias update moves an expert by the same step u = %1. At E = %2 one step changes an expert&apos;s expected load by about %3 % (uniform scores), so the bias cannot settle and the busiest expert ends near twice the mean.</source>
        <translation>&lt;b&gt;为什么 Sigmoid + 偏置会上升&lt;/b&gt;（在方法的设置下，E = 256 时约为 1.1）：一个 token 的 K 个专家来自顶部一段亲和度区间，其宽度随 K/E 收窄，而每次偏置更新都让专家移动同样的步长 u = %1。在 E = %2 时，一步就使一个专家的期望负载改变约 %3 %（均匀打分），因此偏置无法稳定，最忙的专家最终接近平均值的两倍。</translation>
    </message>
    <message>
        <source>This sweep at E = %1: MaxVio %2.</source>
        <translation>本次扫描在 E = %1 时：MaxVio %2。</translation>
    </message>
    <message>
        <source>The method&apos;s setting</source>
        <translation>方法的设置</translation>
    </message>
    <message>
        <source>The page opens on the reference study&apos;s own setting: &lt;b&gt;%1 experts, top-%2&lt;/b&gt; (each token goes to %2 experts), %3 tokens, capacity factor %4, with uniform router scores and preferential ones (+3 on two random experts per token, so still balanced on average).</source>
        <translation>本页打开时即采用参考研究本身的设置：&lt;b&gt;%1 个专家，top-%2&lt;/b&gt;（每个 token 发给 %2 个专家），%3 个 token，容量因子 %4，路由打分分为均匀和有偏好两组（每个 token 随机挑 2 个专家加 3 分，平均而言仍然均衡）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why skewed scores change the outcome:&lt;/b&gt; when the scores favour a few experts (Zipf), most tokens ask for the same experts, so the busiest expert&apos;s load and MaxVio rise; Top-K then drops what exceeds the capacity, while the bias of Sigmoid + bias has to learn to push tokens away from the popular experts.</source>
        <translation>&lt;b&gt;为什么打分偏斜会改变结果：&lt;/b&gt;当打分偏向少数专家（Zipf）时，大多数 token 都选同样的专家，最忙专家的负载和 MaxVio 随之上升；Top-K 于是丢弃超出容量的部分，而 Sigmoid + 偏置的偏置必须学会把 token 从热门专家那里推开。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StageFourPage</name>
    <message>
        <source>Stage 4 · Transfer boundary</source>
        <translation>阶段 4 · 迁移边界</translation>
    </message>
    <message>
        <source>Do the conclusions carry over to the target cluster, and under which conditions do they hold?</source>
        <translation>结论能否迁移到目标集群？在哪些条件下成立？</translation>
    </message>
    <message>
        <source>&lt;p&gt;Everything decided so far was measured on one cluster. Another cluster — other GPUs, another fabric or topology, other node counts — changes the all-to-all cost, and with it the MoE&apos;s advantage.&lt;/p&gt;&lt;p&gt;The target cluster&apos;s stage 1 baseline is compared with the source&apos;s, size by size. &lt;b&gt;Stop&lt;/b&gt; when a size differs by more than the threshold: the conclusions are then reference only, not for budget decisions — re-run stages 2–3 on the target. The &lt;b&gt;applicability statement&lt;/b&gt; lists the conditions (node counts, topology, experts, parallelism) under which the conclusions hold.&lt;/p&gt;</source>
        <translation>&lt;p&gt;到目前为止的结论都是在一个集群上测得的。换一个集群——不同的 GPU、不同的网络或拓扑、不同的节点数——all-to-all 的成本就会改变，MoE 的优势也随之改变。&lt;/p&gt;&lt;p&gt;将目标集群的阶段 1 基线与源集群的逐个消息大小进行对比。任一大小的差异超过阈值时&lt;b&gt;停止&lt;/b&gt;：此时结论只能作为参考，不能用于预算决策——请在目标集群上重新运行阶段 2–3。&lt;b&gt;适用性声明&lt;/b&gt;列出结论成立的条件（节点数、拓扑、专家、并行方式）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Source baseline (where the conclusions were drawn):</source>
        <translation>源基线（得出结论的集群）：</translation>
    </message>
    <message>
        <source>Target baseline (where they should apply):</source>
        <translation>目标基线（结论要用到的集群）：</translation>
    </message>
    <message>
        <source>automatic (latest baseline of each cluster)</source>
        <translation>自动（各集群最新的基线）</translation>
    </message>
    <message>
        <source>%1 (cluster %2)</source>
        <translation>%1（集群 %2）</translation>
    </message>
    <message>
        <source>Source and target baselines</source>
        <translation>源基线与目标基线</translation>
    </message>
    <message>
        <source>Per message size</source>
        <translation>按消息大小</translation>
    </message>
    <message>
        <source>size (B)</source>
        <translation>大小（B）</translation>
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
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Applicability — the conclusions hold under</source>
        <translation>适用性——结论在以下条件下成立</translation>
    </message>
    <message>
        <source>Evaluate to state the conditions.</source>
        <translation>评估后给出适用条件。</translation>
    </message>
    <message>
        <source>effective</source>
        <translation>有效带宽</translation>
    </message>
    <message>
        <source>algbw</source>
        <translation>algbw</translation>
    </message>
    <message>
        <source>STOP</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Source %1, target %2.</source>
        <translation>源：%1，目标：%2。</translation>
    </message>
    <message>
        <source>target ÷ source</source>
        <translation>目标 ÷ 源</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StageOnePage</name>
    <message>
        <source>Stage 1 · Communication baseline</source>
        <translation>阶段 1 · 通信基线</translation>
    </message>
    <message>
        <source>Is the cluster&apos;s all-to-all fast and stable enough at the training&apos;s concurrency to evaluate MoE on it?</source>
        <translation>在训练的并发规模下，该集群的 all-to-all 是否足够快、足够稳定，能在其上评测 MoE？</translation>
    </message>
    <message>
        <source>&lt;p&gt;An MoE layer sends every token to its experts on other GPUs and back (two all-to-alls per layer, forward and backward). Before comparing models, measure what the network gives: per message size the &lt;b&gt;median&lt;/b&gt; and &lt;b&gt;P99&lt;/b&gt; time, the &lt;b&gt;effective bandwidth&lt;/b&gt; (bytes·(n−1)/n ÷ median, nccl-tests&apos; busbw) and the &lt;b&gt;run-to-run variation&lt;/b&gt; (CV of the per-repeat medians) at the concurrency of the training&apos;s expert parallelism.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Stop&lt;/b&gt; when the CV across repeats or P99/median is above the team&apos;s threshold: a noisy or tail-heavy network makes every later timing unreliable. Check network and topology first; do not start stage 2.&lt;/p&gt;&lt;p&gt;No thresholds yet? Measure a first round, then use “Suggest thresholds from this round” (1.5 × the median observed figure).&lt;/p&gt;</source>
        <translation>&lt;p&gt;MoE 层把每个 token 发往其他 GPU 上的专家，再传回来（每层两次 all-to-all，前向和反向都有）。比较模型之前，先测出网络能提供什么：在训练时专家并行的并发规模下，按消息大小测量耗时的&lt;b&gt;中位数&lt;/b&gt;与 &lt;b&gt;P99&lt;/b&gt;、&lt;b&gt;有效带宽&lt;/b&gt;（字节数·(n−1)/n ÷ 中位数，即 nccl-tests 的 busbw），以及&lt;b&gt;重复间波动&lt;/b&gt;（各次重复中位数的 CV）。&lt;/p&gt;&lt;p&gt;重复间 CV 或 P99/中位数超过团队设定的阈值时&lt;b&gt;停止&lt;/b&gt;：网络波动大或尾延迟高，之后的每一项计时都不可靠。先排查网络和拓扑，不要进入阶段 2。&lt;/p&gt;&lt;p&gt;还没有阈值？先测一轮，再使用“根据本轮建议阈值”（取观测值中位数的 1.5 倍）。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Sweep finished: %n run(s) saved (%1).</source>
        <translation>
            <numerusform>扫描完成：已保存 %n 个运行（%1）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Bandwidth and latency by message size</source>
        <translation>各消息大小的带宽与延迟</translation>
    </message>
    <message>
        <source>Per message size (as nccl-tests&apos; alltoall_perf)</source>
        <translation>按消息大小（同 nccl-tests 的 alltoall_perf）</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点数</translation>
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
        <source>P99 (µs)</source>
        <translation>P99（µs）</translation>
    </message>
    <message>
        <source>algbw (GB/s)</source>
        <translation>algbw（GB/s）</translation>
    </message>
    <message>
        <source>effbw (GB/s)</source>
        <translation>effbw（GB/s）</translation>
    </message>
    <message>
        <source>P99/median</source>
        <translation>P99/中位数</translation>
    </message>
    <message>
        <source>CV</source>
        <translation>CV</translation>
    </message>
    <message>
        <source>Across node counts</source>
        <translation>不同节点数对比</translation>
    </message>
    <message>
        <source>bandwidth (GB/s)</source>
        <translation>带宽（GB/s）</translation>
    </message>
    <message>
        <source>bandwidth kind</source>
        <translation>带宽类型</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>effective</source>
        <translation>有效带宽</translation>
    </message>
    <message>
        <source>algbw (world size unknown)</source>
        <translation>algbw（world size 未知）</translation>
    </message>
    <message>
        <source>Measured routing against uniform traffic</source>
        <translation>实测路由与均匀流量对比</translation>
    </message>
    <message>
        <source>routed run</source>
        <translation>实测路由运行</translation>
    </message>
    <message>
        <source>routing</source>
        <translation>路由来源</translation>
    </message>
    <message>
        <source>uniform run</source>
        <translation>均匀流量运行</translation>
    </message>
    <message>
        <source>uniform (µs, median)</source>
        <translation>均匀 (µs，中位数)</translation>
    </message>
    <message>
        <source>measured routing (µs, median)</source>
        <translation>实测路由 (µs，中位数)</translation>
    </message>
    <message>
        <source>ratio (×)</source>
        <translation>比值 (×)</translation>
    </message>
    <message>
        <source>At %1 per rank, the routing of %2 (run %3) makes the all-to-all %4 as long as a uniform one (run %5) on this cluster.</source>
        <translation>每个 rank %1 时，%2（运行 %3）的路由使 all-to-all 耗时为本集群均匀流量（运行 %5）的 %4。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StageOneRunPanel</name>
    <message>
        <source>&lt;b&gt;Measure a new baseline on a cluster&lt;/b&gt; (moe-probe over SSH; each node count becomes one run)</source>
        <translation>&lt;b&gt;在集群上测量新的基线&lt;/b&gt;（通过 SSH 运行 moe-probe；每个节点数生成一个运行）</translation>
    </message>
    <message>
        <source>Comma-separated; each sweep point uses the first N nodes of the cluster</source>
        <translation>用逗号分隔；每个扫描点使用集群的前 N 个节点</translation>
    </message>
    <message>
        <source>The training&apos;s expert-parallel size: the all-to-all concurrency the baseline should match (world = nodes × GPUs per node)</source>
        <translation>训练的专家并行规模：基线应匹配的 all-to-all 并发（world = 节点数 × 每节点 GPU 数）</translation>
    </message>
    <message>
        <source>GPUs per node:</source>
        <translation>每节点 GPU 数：</translation>
    </message>
    <message>
        <source>Bytes each rank sends, e.g. &quot;1 MiB, 16 MiB, 64 MiB&quot;</source>
        <translation>每个 rank 发送的字节数，例如“1 MiB, 16 MiB, 64 MiB”</translation>
    </message>
    <message>
        <source>Suggest from record</source>
        <translation>根据配置记录建议</translation>
    </message>
    <message>
        <source>Independent repeats per size: the CV across repeats needs at least two</source>
        <translation>每个大小的独立重复次数：计算重复间 CV 至少需要两次</translation>
    </message>
    <message>
        <source>Trust host keys seen for the first time (written to known_hosts)</source>
        <translation>信任首次见到的主机密钥（写入 known_hosts）</translation>
    </message>
    <message>
        <source>Cluster:</source>
        <translation>集群：</translation>
    </message>
    <message>
        <source>Config record:</source>
        <translation>配置记录：</translation>
    </message>
    <message>
        <source>Node counts:</source>
        <translation>节点数：</translation>
    </message>
    <message>
        <source>EP size:</source>
        <translation>EP 规模：</translation>
    </message>
    <message>
        <source>Message sizes:</source>
        <translation>消息大小：</translation>
    </message>
    <message>
        <source>Repeats:</source>
        <translation>重复次数：</translation>
    </message>
    <message>
        <source>Launcher:</source>
        <translation>启动方式：</translation>
    </message>
    <message>
        <source>Backend:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <source>Run on cluster…</source>
        <translation>在集群上运行…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Copy log</source>
        <translation>复制日志</translation>
    </message>
    <message>
        <source>The sweep&apos;s log appears here.</source>
        <translation>扫描日志显示在这里。</translation>
    </message>
    <message>
        <source>Add a cluster first (moewb cluster add, or the Clusters page).</source>
        <translation>请先添加集群（moewb cluster add，或在“集群”页面添加）。</translation>
    </message>
    <message>
        <source>Add a config record first: the runs belong to one.</source>
        <translation>请先添加配置记录：运行都归属于某个配置记录。</translation>
    </message>
    <message>
        <source>The record lacks sequence length, top-k or hidden size: default sizes shown.</source>
        <translation>配置记录缺少序列长度、Top-K 或隐藏维度：显示的是默认大小。</translation>
    </message>
    <message>
        <source>message size &quot;%1&quot; is not a size (e.g. 64 MiB)</source>
        <translation>消息大小“%1”不是有效的大小（例如 64 MiB）</translation>
    </message>
    <message>
        <source>message size &quot;%1&quot; must be above 0</source>
        <translation>消息大小“%1”必须大于 0</translation>
    </message>
    <message>
        <source>give at least one message size</source>
        <translation>请至少给出一个消息大小</translation>
    </message>
    <message>
        <source>no project is open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <source>choose a cluster and a config record</source>
        <translation>请选择集群和配置记录</translation>
    </message>
    <message>
        <source>node count &quot;%1&quot; is not a whole number ≥ 1</source>
        <translation>节点数“%1”不是 ≥ 1 的整数</translation>
    </message>
    <message>
        <source>give at least one node count</source>
        <translation>请至少给出一个节点数</translation>
    </message>
    <message>
        <source>Not started: %1.</source>
        <translation>未启动：%1。</translation>
    </message>
    <message>
        <source>Note: no sweep point&apos;s world size (nodes × %1 GPUs) equals the EP size %2; the baseline should use the training&apos;s concurrency.</source>
        <translation>注意：没有任何扫描点的 world size（节点数 × %1 个 GPU）等于 EP 规模 %2；基线应使用训练时的并发规模。</translation>
    </message>
    <message>
        <source>Running on %1: node counts %2…</source>
        <translation>正在 %1 上运行：节点数 %2…</translation>
    </message>
    <message>
        <source>Cancelling… (remote processes are stopped; no partial run is saved)</source>
        <translation>正在取消…（远端进程会被停止；不保存不完整的运行）</translation>
    </message>
    <message>
        <source>sweep</source>
        <translation>扫描</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n run(s) saved.</source>
        <translation>
            <numerusform>完成：已保存 %n 个运行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled. %n finished run(s) kept.</source>
        <translation>
            <numerusform>已取消。保留了 %n 个已完成的运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Failed — %1</source>
        <translation>失败 — %1</translation>
    </message>
    <message>
        <source>Cluster %1 is this computer: %2 ranks as local processes on loopback (no SSH, no host keys); node counts are rank counts.</source>
        <translation>集群 %1 是本机：%2 个 rank 作为本地进程在回环网络上运行（无 SSH，无主机密钥）；节点数即 rank 数。</translation>
    </message>
    <message>
        <source>Cluster %1 is this computer: %2 ranks as local processes, each in its own network namespace with its link shaped to %3 (needs root); node counts are rank counts.</source>
        <translation>集群 %1 是本机：%2 个 rank 作为本地进程运行，每个位于自己的网络命名空间中，链路限速为 %3（需要 root）；节点数即 rank 数。</translation>
    </message>
    <message>
        <source>this computer, rank %1</source>
        <translation>本机，rank %1</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StagePage</name>
    <message>
        <source>✔ VERDICT: PASS</source>
        <translation>✔ 结论：通过</translation>
    </message>
    <message>
        <source>✖ VERDICT: STOP</source>
        <translation>✖ 结论：停止</translation>
    </message>
    <message>
        <source>… VERDICT: NOT READY</source>
        <translation>… 结论：未就绪</translation>
    </message>
    <message>
        <source>About this stage</source>
        <translation>关于本阶段</translation>
    </message>
    <message>
        <source>What this stage checks and why (the method)</source>
        <translation>本阶段检查什么、为什么检查（方法说明）</translation>
    </message>
    <message>
        <source>No project is open. Open or create one (File menu) to evaluate this stage.</source>
        <translation>未打开项目。请先打开或新建项目（“文件”菜单），再评估本阶段。</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Run the stage&apos;s gate on the chosen runs and save its verdict (F5)</source>
        <translation>对所选运行执行本阶段的判定，并保存结论（F5）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Evaluation cancelled; nothing was saved.</source>
        <translation>评估已取消；未保存任何内容。</translation>
    </message>
    <message>
        <source>Override with justification…</source>
        <translation>附理由豁免…</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Double-click a value to set your team&apos;s threshold (saved with source &quot;team&quot;).</source>
        <translation>双击某个值即可设置团队自己的阈值（保存时来源为“团队阈值”）。</translation>
    </message>
    <message>
        <source>Suggest thresholds from this round…</source>
        <translation>根据本轮建议阈值…</translation>
    </message>
    <message>
        <source>Evaluate first: suggestions are derived from the evaluated runs.</source>
        <translation>请先评估：建议值由已评估的运行推算得出。</translation>
    </message>
    <message>
        <source>%1  (%2, record %3%4)</source>
        <translation>%1（%2，配置记录 %3%4）</translation>
    </message>
    <message>
        <source>, cluster %1</source>
        <translation>，集群 %1</translation>
    </message>
    <message>
        <source>The project has no runs this stage can use yet.</source>
        <translation>项目中还没有本阶段可用的运行。</translation>
    </message>
    <message numerus="yes">
        <source>Runs to evaluate (%n run(s) with this stage&apos;s data; all are taken by default):</source>
        <translation>
            <numerusform>要评估的运行（%n 个运行含本阶段所需的数据；默认全部选用）：</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;LOCKED&lt;/b&gt; — %1</source>
        <translation>&lt;b&gt;已锁定&lt;/b&gt; — %1</translation>
    </message>
    <message>
        <source>Check at least one run to evaluate.</source>
        <translation>请至少勾选一个要评估的运行。</translation>
    </message>
    <message>
        <source>Evaluating stage %1 on its default runs…</source>
        <translation>正在用默认运行评估阶段 %1…</translation>
    </message>
    <message numerus="yes">
        <source>Evaluating stage %1 on %n run(s)…</source>
        <translation>
            <numerusform>正在用 %n 个运行评估阶段 %1…</numerusform>
        </translation>
    </message>
    <message>
        <source>Not evaluated: %1</source>
        <translation>未评估：%1</translation>
    </message>
    <message>
        <source> The verdict was not saved: %1</source>
        <translation>结论未保存：%1</translation>
    </message>
    <message>
        <source>Stage %1 evaluated at %2: %3.%4</source>
        <translation>阶段 %1 已于 %2 完成评估：%3。%4</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What to do:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;下一步：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 = %2 (%3)</source>
        <translation>%1 = %2（%3）</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Thresholds:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;阈值：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Notes:&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;备注：&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;⚠ Stage 2 is now stale:&lt;/b&gt; %1 Re-run stage 2 before relying on its verdict.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;⚠ 阶段 2 现已过期：&lt;/b&gt;%1 请先重新运行阶段 2，再依据它的结论。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Saved verdict: %1</source>
        <translation>已保存的结论：%1</translation>
    </message>
    <message>
        <source>No verdict yet</source>
        <translation>尚无结论</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;⚠ Stale:&lt;/b&gt; the load-balancing method changed after this stage was decided. Re-run this stage.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;⚠ 已过期：&lt;/b&gt;本阶段判定之后，负载均衡方法发生了变化。请重新运行本阶段。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>set in the stage %1 page</source>
        <translation>在阶段 %1 页面中设置</translation>
    </message>
    <message>
        <source>Threshold not saved: %1</source>
        <translation>阈值未保存：%1</translation>
    </message>
    <message>
        <source>%1 = %2 saved as your team&apos;s threshold. Evaluate again to apply it.</source>
        <translation>%1 = %2 已保存为团队阈值。重新评估即可生效。</translation>
    </message>
    <message>
        <source>Not overridden: %1</source>
        <translation>未豁免：%1</translation>
    </message>
    <message>
        <source>Stage %1&apos;s stop is overridden; stage %2 is unlocked.</source>
        <translation>阶段 %1 的停止已豁免；阶段 %2 已解锁。</translation>
    </message>
    <message>
        <source>&lt;p&gt;From the runs just evaluated (a first round of measurements):&lt;/p&gt;&lt;ul&gt;</source>
        <translation>&lt;p&gt;根据刚评估的运行（第一轮测量）：&lt;/p&gt;&lt;ul&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;%1 = %2&lt;/b&gt; (now %3) — %4&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;%1 = %2&lt;/b&gt;（当前 %3）— %4&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;/ul&gt;&lt;p&gt;Apply them as your thresholds (source “suggested from round 1”)? Nothing changes unless you confirm.&lt;/p&gt;</source>
        <translation>&lt;/ul&gt;&lt;p&gt;将它们应用为团队阈值（来源为“根据第一轮测量建议”）？不确认就不会有任何更改。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Suggested thresholds</source>
        <translation>建议阈值</translation>
    </message>
    <message>
        <source>Apply suggestions</source>
        <translation>应用建议</translation>
    </message>
    <message numerus="yes">
        <source>%n suggested threshold(s) applied. Evaluate again to use them.</source>
        <translation>
            <numerusform>已应用 %n 个建议阈值。重新评估即可使用。</numerusform>
        </translation>
    </message>
    <message>
        <source>Preview data (no verdict)</source>
        <translation>预览数据（不下结论）</translation>
    </message>
    <message>
        <source>Reading stage %1&apos;s data for a preview (no verdict)…</source>
        <translation>正在读取阶段 %1 的数据以供预览（不下结论）…</translation>
    </message>
    <message>
        <source>Stage %1 previewed at %2: no verdict while it is locked.</source>
        <translation>阶段 %1 已于 %2 预览：锁定期间不下结论。</translation>
    </message>
    <message>
        <source>Show the tables and plots of this locked stage as its gate would read them; no verdict is decided or saved</source>
        <translation>按门禁读取数据的方式显示这个已锁定阶段的表格和图；不下结论，也不保存任何结论</translation>
    </message>
    <message>
        <source>Re-evaluate</source>
        <translation>重新评估</translation>
    </message>
    <message>
        <source>Evaluate the stage again on the runs it would use now and save that verdict</source>
        <translation>按此阶段现在会使用的运行重新评估，并保存该判定</translation>
    </message>
    <message>
        <source>&lt;p style=&quot;color:#B35C00&quot;&gt;&lt;b&gt;⚠ %1&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p style=&quot;color:#B35C00&quot;&gt;&lt;b&gt;⚠ %1&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Decided %1. The plots and tables show the project&apos;s data now; Evaluate decides again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;判定于 %1。图表和表格显示项目当前的数据；点击“评估”重新判定。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Press &lt;b&gt;Evaluate&lt;/b&gt;: the gate compares the runs (under Inputs) with the thresholds and saves its verdict in the project.&lt;/p&gt;</source>
        <translation>&lt;p&gt;点击&lt;b&gt;评估&lt;/b&gt;：关卡将运行（见“输入”）与阈值比较，并把判定保存到项目中。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Details: thresholds and notes</source>
        <translation>详情：阈值与说明</translation>
    </message>
    <message>
        <source>&lt;br&gt;To unlock it: open stage %1 (Ctrl+%1) and evaluate it until it passes, or override its stop there with a written justification.</source>
        <translation>&lt;br&gt;解锁方法：打开阶段 %1（Ctrl+%1）并评估直到通过，或在那里以书面理由越过其停止结论。</translation>
    </message>
    <message>
        <source>PREVIEW — no verdict</source>
        <translation>预览——无结论</translation>
    </message>
    <message>
        <source>&lt;p&gt;The tables and plots below show the data as the gate would read it; nothing is decided or saved while the stage is locked.&lt;/p&gt;</source>
        <translation>&lt;p&gt;下方的表格和图按关卡读取的方式显示数据；阶段锁定期间不作结论，也不保存任何内容。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;%1 more reasons under Details.&lt;/p&gt;</source>
        <translation>&lt;p&gt;另有 %1 条原因,见“详情”。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Confirm override…</source>
        <translation>确认豁免…</translation>
    </message>
    <message>
        <source>Write the override again for this stop</source>
        <translation>为此停止重新填写豁免</translation>
    </message>
    <message>
        <source>Withdraw override</source>
        <translation>撤回豁免</translation>
    </message>
    <message>
        <source>The stop is in force again; the override stays on record</source>
        <translation>停止结论重新生效;豁免仍留档</translation>
    </message>
    <message>
        <source>↷ VERDICT: %1</source>
        <translation>↷ 结论:%1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; %2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Not withdrawn: %1</source>
        <translation>未撤回:%1</translation>
    </message>
    <message>
        <source>Stage %1&apos;s override is withdrawn: the stop is in force again.</source>
        <translation>阶段 %1 的豁免已撤回:停止结论重新生效。</translation>
    </message>
    <message>
        <source>Double-click to set your team&apos;s value (%1)</source>
        <translation>双击以设置团队的取值（%1）</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number ≥ 0 in its unit (e.g. %3); the threshold is unchanged.</source>
        <translation>%1：“%2”不是该单位下 ≥ 0 的数值（例如 %3）；阈值未改变。</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StageThreePage</name>
    <message>
        <source>Stage 3 · Expert load and loss</source>
        <translation>阶段 3 · 专家负载与损失</translation>
    </message>
    <message>
        <source>Do the experts share the work — no layer persistently overloaded, few tokens dropped — and what does balancing cost in loss?</source>
        <translation>专家是否分担了工作——没有哪一层长期过载，丢弃的 token 很少？均衡又让损失付出了多少代价？</translation>
    </message>
    <message>
        <source>&lt;p&gt;The router sends each token to its top-k experts. When a few experts get most tokens, the GPUs holding them set the step time (the &lt;b&gt;busiest device&lt;/b&gt;), and with a capacity limit the overflow is &lt;b&gt;dropped&lt;/b&gt; and never trained on.&lt;/p&gt;&lt;p&gt;The &lt;b&gt;load ratio&lt;/b&gt; of a layer at a step is max ÷ mean tokens per expert (1 = perfectly even). Over the last W steps (the window), the gate counts for each layer how often the ratio is above the limit; it &lt;b&gt;stops&lt;/b&gt; when the worst layer is above the limit in more than the allowed fraction of the window, or when the drop rate over the window is above its limit.&lt;/p&gt;&lt;p&gt;Changing the load-balancing method (aux loss, its coefficient, bias-based balancing) changes the model: stage 2&apos;s comparison then no longer describes it and is marked &lt;b&gt;stale&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;路由器把每个 token 发给它的 Top-K 个专家。少数专家拿到大部分 token 时，持有它们的 GPU 决定步时间（&lt;b&gt;最忙设备&lt;/b&gt;）；若有容量上限，溢出的 token 会被&lt;b&gt;丢弃&lt;/b&gt;，不参与训练。&lt;/p&gt;&lt;p&gt;某层在某一步的&lt;b&gt;负载比&lt;/b&gt; = 每个专家 token 数的最大值 ÷ 均值（1 = 完全均匀）。在最近 W 步（窗口）内，判定逐层统计负载比超过上限的次数；最差层超限的步数占比大于允许的比例，或窗口内的丢弃率超过其上限时，判定&lt;b&gt;停止&lt;/b&gt;。&lt;/p&gt;&lt;p&gt;更改负载均衡方法（辅助损失、其系数、基于偏置的均衡）就是改变模型：阶段 2 的比较不再描述这个模型，因而被标记为&lt;b&gt;已过期&lt;/b&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Per run, over the window</source>
        <translation>按运行统计（窗口内）</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家数</translation>
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
        <source>drop rate source</source>
        <translation>丢弃率来源</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>运行：</translation>
    </message>
    <message>
        <source>Also plot layers:</source>
        <translation>另外绘制的层：</translation>
    </message>
    <message>
        <source>e.g. 0, 5</source>
        <translation>例如 0, 5</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>步：</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>× mean of the layer</source>
        <translation>× 该层均值</translation>
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
        <source>⚠ Stage 2 is stale: %1 Stage 2 must be re-run before stages 3 and 4 count.</source>
        <translation>⚠ 阶段 2 已过期：%1 必须先重新运行阶段 2，阶段 3 和 4 的结论才有效。</translation>
    </message>
    <message>
        <source>%1 layer %2</source>
        <translation>%1 第 %2 层</translation>
    </message>
    <message>
        <source>its config record has no parallelism.ep</source>
        <translation>其配置记录没有 parallelism.ep</translation>
    </message>
    <message>
        <source>What a rebalanced placement would give</source>
        <translation>重新平衡专家放置能带来什么</translation>
    </message>
    <message>
        <source>Predicted from each run&apos;s measured expert load over all its steps: the busiest GPU&apos;s share of the routed tokens with today&apos;s contiguous placement (expert e on GPU e ÷ (experts ÷ EP)) and after DeepSeek EPLB&apos;s rebalancing, with the record&apos;s EP size and the nodes its EP group spans. Even = 1 ÷ EP. Redundant slots replicate the hottest experts (one slot costs one expert&apos;s memory per GPU).</source>
        <translation>根据每个运行全部步数的实测专家负载预测：最忙 GPU 在路由 token 中所占的份额，分别按当前的连续放置（专家 e 位于 GPU e ÷ (专家数 ÷ EP)）和 DeepSeek EPLB 重新平衡之后计算；EP 大小取自配置记录，节点数为其 EP 组跨越的节点数。均匀 = 1 ÷ EP。冗余槽位用于复制最热的专家（每个槽位在每个 GPU 上多占一个专家的显存）。</translation>
    </message>
    <message>
        <source>Redundant expert slots per GPU:</source>
        <translation>每 GPU 冗余专家槽位：</translation>
    </message>
    <message>
        <source>Export placement…</source>
        <translation>导出放置方案…</translation>
    </message>
    <message>
        <source>Writes the selected run&apos;s placement (phy2log, log2phy, logcnt) and its load (EPLB&apos;s weight) as JSON, as moewb placement RUN -o does</source>
        <translation>把所选运行的放置方案（phy2log、log2phy、logcnt）及其负载（EPLB 的 weight）写为 JSON，与 moewb placement RUN -o 相同</translation>
    </message>
    <message>
        <source>GPUs (EP)</source>
        <translation>GPU 数（EP）</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>This run has no rebalanced placement.</source>
        <translation>该运行没有重新平衡的放置方案。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export placement</source>
        <translation>导出放置方案</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>Placement of %1 written to %2.</source>
        <translation>%1 的放置方案已写入 %2。</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>Debiased exponential moving average of the load curves, as TensorBoard&apos;s smoothing (0 = the raw curves; the raw curve stays faint beneath)</source>
        <translation>负载曲线的去偏指数移动平均，与 TensorBoard 的平滑相同（0 = 原始曲线；原始曲线以浅色保留在下方）</translation>
    </message>
    <message>
        <source>%1 (raw)</source>
        <translation>%1（原始）</translation>
    </message>
    <message>
        <source>Curves smoothed (debiased EMA, factor %1); raw curves faint.</source>
        <translation>曲线已平滑（去偏 EMA，系数 %1）；原始曲线为浅色。</translation>
    </message>
    <message numerus="yes">
        <source>EPLB hierarchical, %n redundant slot(s) per GPU</source>
        <translation>
            <numerusform>EPLB 分层策略，每 GPU %n 个冗余槽位</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>EPLB global, %n redundant slot(s) per GPU</source>
        <translation>
            <numerusform>EPLB 全局策略，每 GPU %n 个冗余槽位</numerusform>
        </translation>
    </message>
    <message>
        <source>steps above limit</source>
        <translation>超限步数占比</translation>
    </message>
    <message>
        <source>max load ratio (max/mean)</source>
        <translation>最大负载比（max/mean）</translation>
    </message>
    <message>
        <source>mean load ratio (max/mean)</source>
        <translation>平均负载比（max/mean）</translation>
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
        <source>worst layer today</source>
        <translation>当前最差层</translation>
    </message>
    <message>
        <source>worst layer rebalanced</source>
        <translation>重平衡后最差层</translation>
    </message>
    <message>
        <source>mean over layers today</source>
        <translation>当前各层平均</translation>
    </message>
    <message>
        <source>mean over layers rebalanced</source>
        <translation>重平衡后各层平均</translation>
    </message>
    <message>
        <source>even</source>
        <translation>均匀</translation>
    </message>
    <message>
        <source> measured (overload factor)</source>
        <translation> 实测（过载因子）</translation>
    </message>
    <message>
        <source> (EP ranks)</source>
        <translation>（EP rank）</translation>
    </message>
</context>
<context>
    <name>moewb::gui::StageTwoPage</name>
    <message>
        <source>Stage 2 · Dense control</source>
        <translation>阶段 2 · 稠密对照</translation>
    </message>
    <message>
        <source>Does the MoE beat a dense model of similar activated size, trained like for like, in throughput or validation loss?</source>
        <translation>与激活参数量相近、同口径训练的稠密模型相比，MoE 在吞吐量或验证损失上是否占优？</translation>
    </message>
    <message>
        <source>&lt;p&gt;An MoE has many more parameters than it activates per token. The fair control is a &lt;b&gt;dense model with about the same activated parameters&lt;/b&gt; (within the tolerance), trained on the same batch, sequence length, optimizer, schedule, token budget and validation set, with throughput counted the same way (warm-up steps excluded).&lt;/p&gt;&lt;p&gt;Throughput is tokens/s per GPU over the steady phase; losses are read at &lt;b&gt;equal tokens&lt;/b&gt;. &lt;b&gt;Stop&lt;/b&gt; when the MoE is slower &lt;i&gt;and&lt;/i&gt; its validation loss is not better: adding experts will not fix that — adjust the configuration first.&lt;/p&gt;</source>
        <translation>&lt;p&gt;MoE 的参数量远大于每个 token 激活的参数量。公平的对照是&lt;b&gt;激活参数量大致相同的稠密模型&lt;/b&gt;（在容差之内），使用相同的批次、序列长度、优化器、学习率调度、训练 token 数和验证集，吞吐量也按同一口径统计（去掉预热步）。&lt;/p&gt;&lt;p&gt;吞吐量取稳定阶段每 GPU 的 tokens/s；损失在&lt;b&gt;相同 token 数&lt;/b&gt;处读取。MoE 更慢&lt;i&gt;且&lt;/i&gt;验证损失没有改善时&lt;b&gt;停止&lt;/b&gt;：增加专家解决不了这个问题——应先调整配置。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>MoE against dense, at equal tokens</source>
        <translation>MoE 对比稠密模型（相同 token 数）</translation>
    </message>
    <message>
        <source>group</source>
        <translation>组</translation>
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
        <translation>对比处 token 数</translation>
    </message>
    <message>
        <source>activated params diff</source>
        <translation>激活参数量差异</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Loss curves</source>
        <translation>损失曲线</translation>
    </message>
    <message>
        <source>x axis:</source>
        <translation>x 轴：</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Config records compared</source>
        <translation>对比的配置记录</translation>
    </message>
    <message>
        <source>Show all fields (default: only those that differ)</source>
        <translation>显示全部字段（默认只显示不同的字段）</translation>
    </message>
    <message>
        <source>field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>STOP</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>not like for like</source>
        <translation>口径不一致</translation>
    </message>
    <message>
        <source>Smoothing: %1 (debiased EMA)</source>
        <translation>平滑：%1（去偏 EMA）</translation>
    </message>
</context>
<context>
    <name>moewb::gui::learn</name>
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
        <source>Parameters: stored vs computed per token</source>
        <translation>参数量：存储量与每个 token 的计算量</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>parameters (billions)</source>
        <translation>参数量（十亿）</translation>
    </message>
    <message>
        <source>total (stored)</source>
        <translation>总量（存储）</translation>
    </message>
    <message>
        <source>activated (per token)</source>
        <translation>激活（每 token）</translation>
    </message>
    <message>
        <source>routed experts</source>
        <translation>路由专家</translation>
    </message>
    <message>
        <source>attention, router, shared experts</source>
        <translation>注意力、路由器、共享专家</translation>
    </message>
    <message>
        <source>routed experts (all E stored, K computed)</source>
        <translation>路由专家（存储全部 E 个，计算 K 个）</translation>
    </message>
    <message>
        <source>Formula counts (transformer layers only: no embeddings or output head). Routed experts in the stored bar: %1 B, in the computed one: %2 B.</source>
        <translation>按公式计数（仅 Transformer 层，不含嵌入层和输出头）。路由专家在存储柱中为 %1 B，在计算柱中为 %2 B。</translation>
    </message>
    <message>
        <source>Memory per device (before activations)</source>
        <translation>每设备显存（不含激活值）</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>memory (GiB)</source>
        <translation>显存（GiB）</translation>
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
        <source>GiB per device</source>
        <translation>每设备 GiB</translation>
    </message>
    <message>
        <source>Load per expert (assignments processed)</source>
        <translation>每个专家的负载（处理的分配数）</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>assignments</source>
        <translation>分配数</translation>
    </message>
    <message>
        <source>target K×T/E</source>
        <translation>目标 K×T/E</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Sigmoid + bias: MaxVio while the bias is learned</source>
        <translation>Sigmoid + 偏置：学习偏置过程中的 MaxVio</translation>
    </message>
    <message>
        <source>bias update</source>
        <translation>偏置更新</translation>
    </message>
    <message>
        <source>MaxVio of the batch</source>
        <translation>批次的 MaxVio</translation>
    </message>
    <message>
        <source>MaxVio per batch</source>
        <translation>每批次 MaxVio</translation>
    </message>
    <message>
        <source>mean over each pass (%1 batches)</source>
        <translation>每轮均值（%1 个批次）</translation>
    </message>
    <message>
        <source>Final pass over all tokens with the learned bias: MaxVio %1.</source>
        <translation>用学到的偏置对全部 token 做最后一遍路由：MaxVio %1。</translation>
    </message>
    <message>
        <source>MaxVio vs number of experts</source>
        <translation>MaxVio 随专家数的变化</translation>
    </message>
    <message>
        <source>experts E</source>
        <translation>专家数 E</translation>
    </message>
    <message>
        <source>MaxVio</source>
        <translation>MaxVio</translation>
    </message>
    <message>
        <source>What capacity costs vs number of experts</source>
        <translation>容量的代价随专家数的变化</translation>
    </message>
    <message>
        <source>share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Top-K: dropped assignments / K·T</source>
        <translation>Top-K：丢弃的分配 / K·T</translation>
    </message>
    <message>
        <source>%1: tokens without expert / T</source>
        <translation>%1：无专家 token / T</translation>
    </message>
    <message>
        <source>Sigmoid + bias is dropless: it drops nothing at any E.</source>
        <translation>Sigmoid + 偏置不丢弃（dropless）：在任何 E 下都不丢弃分配。</translation>
    </message>
</context>
</TS>
