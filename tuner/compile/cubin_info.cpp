#include "compile/cubin_info.hpp"

#include "compile/cubin_bytes.hpp"
#include "compile/machine_loops.hpp"

#include "util/sha256.hpp"

#include <fmt/format.h>
#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>

namespace autotune {
namespace {

// NVIDIA does not document the cubin format. The constants below were checked against
// `cuobjdump -elf` for cubins from CUDA 13.0's ptxas (sm_75 … sm_120); the numbering
// matches the EIATTR tables published by cubin tools (CuAssembler, redplait/denvdis).
constexpr unsigned kEmCuda = 190;
constexpr unsigned kStoCudaEntry = 0x10;           // in st_other of __global__ functions only
constexpr Elf64_Word kNoteTkInfoType = 2000;       // .note.nv.tkinfo, owner "NVIDIA Corp"

// .nv.info record: u8 format, u8 attribute, u16 value-or-size, then `size` bytes for SVAL.
enum Format : std::uint8_t { kNval = 0x01, kBval = 0x02, kHval = 0x03, kSval = 0x04 };
enum Attribute : std::uint8_t {
    kMaxThreads = 0x05,   // SVAL: u32 x, y, z from .maxntid            (per-kernel section)
    kFrameSize = 0x11,    // SVAL: u32 symbol, u32 bytes                (global .nv.info)
    kMinStackSize = 0x12, // SVAL: u32 symbol, u32 bytes                (global .nv.info)
    kMaxregCount = 0x1b,  // HVAL: register cap ptxas applied, 0xff = none (per-kernel)
    kRegcount = 0x2f,     // SVAL: u32 symbol, u32 registers            (global .nv.info)
    kNumBarriers = 0x4c,  // BVAL: named barriers used; absent = 0       (per-kernel)
};

// From sm_90 on, ptxas places a kernel's shared variables after a 1 KiB block the system
// reserves at the start of every CTA's shared window (the SASS addresses the first
// variable at 0x400), and .nv.shared.<fn> spans that block too: 4096 declared bytes make a
// 0x1400 section, and a kernel with only dynamic shared memory gets a 0x400 one (sm_100+
// cubins also carry a .nv.reservedSmem.cap symbol of 0x400). ptxas -v leaves the block
// out, and so do we. Before sm_90 the section holds the variables alone.
constexpr std::int64_t kReservedSharedBytes = 1024;
constexpr int kFirstSmWithReservedSharedInElf = 90;

// How ptxas ends a code section: a branch to itself (so that fetch never runs past the
// code), then NOPs to the section's 128-byte alignment. Neither ever issues. Their
// encodings, as nvdisasm shows them (CUDA 13.0, sm_75 to sm_120): the NOP is one 128-bit
// word; the branch's low word differs by architecture but ends in BRA's opcode 0x7947.
constexpr std::uint64_t kNopLow = 0x0000000000007918, kNopHigh = 0x000fc00000000000;
constexpr std::uint64_t kSelfBranchHigh = 0x000fc0000383ffff, kBranchOpcodeMask = 0xffff, kBranchOpcode = 0x7947;

struct Record {
    std::uint8_t format = 0;
    std::uint8_t attribute = 0;
    std::uint16_t value = 0;      // HVAL/BVAL value; SVAL payload size
    std::string_view payload;     // SVAL only
};

// The bytes of `code` that can issue: without the closing self-branch and alignment NOPs.
std::size_t issuable_bytes(std::string_view code)
{
    constexpr std::size_t word = 16;
    std::size_t end = code.size() - code.size() % word;
    while (end >= word && load_u64(code, end - word) == kNopLow && load_u64(code, end - word + 8) == kNopHigh)
        end -= word;
    if (end >= word && (load_u64(code, end - word) & kBranchOpcodeMask) == kBranchOpcode &&
        load_u64(code, end - word + 8) == kSelfBranchHigh)
        end -= word;
    return end;
}

// Empty when a record runs past the end or has an unknown format.
std::optional<std::vector<Record>> parse_nv_info(std::string_view data)
{
    std::vector<Record> records;
    std::size_t at = 0;
    while (at + 4 <= data.size()) {
        Record r;
        r.format = static_cast<std::uint8_t>(data[at]);
        r.attribute = static_cast<std::uint8_t>(data[at + 1]);
        r.value = load_little_endian<std::uint16_t>(data, at + 2);
        at += 4;
        if (r.format == kSval) {
            if (at + r.value > data.size())
                return std::nullopt;
            r.payload = data.substr(at, r.value);
            at += r.value;
        } else if (r.format < kNval || r.format > kHval) {
            return std::nullopt;
        }
        records.push_back(r);
    }
    return records;
}

struct ElfCloser {
    void operator()(Elf* elf) const { elf_end(elf); }
};

struct Section {
    std::size_t index = 0;
    std::string name;
    GElf_Shdr header{};
    std::string_view data; // empty for NOBITS
};

std::string_view section_data(Elf_Scn* scn, const GElf_Shdr& header)
{
    if (header.sh_type == SHT_NOBITS)
        return {};
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || data->d_buf == nullptr)
        return {};
    return {static_cast<const char*>(data->d_buf), data->d_size};
}

// The sm from e_flags: ABI version 8 (CUDA 12.8+) moved it from bits 0–7 to bits 8–15.
int sm_from_header(const GElf_Ehdr& header)
{
    const unsigned abi = header.e_ident[EI_ABIVERSION];
    return abi >= 8 ? static_cast<int>((header.e_flags >> 8) & 0xff) : static_cast<int>(header.e_flags & 0xff);
}

// .note.nv.tkinfo's descriptor: u32 note version (2), then u32 offsets into the string
// table that follows — object name, tool name, tool version, branch, command line.
std::string ptxas_arguments(const Section& note_section, Elf_Scn* scn)
{
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr)
        return {};
    GElf_Nhdr note;
    std::size_t name_at = 0;
    std::size_t desc_at = 0;
    for (std::size_t at = 0; (at = gelf_getnote(data, at, &note, &name_at, &desc_at)) != 0;) {
        const std::string_view desc = note_section.data.substr(desc_at, note.n_descsz);
        constexpr std::size_t fields = 6;
        if (note.n_type != kNoteTkInfoType || desc.size() < fields * 4 || load_u32(desc, 0) != 2)
            continue;
        const std::string_view strings = desc.substr(fields * 4);
        const std::size_t args_at = load_u32(desc, 5 * 4);
        if (args_at >= strings.size())
            continue;
        const std::string_view rest = strings.substr(args_at);
        std::string args(rest.substr(0, rest.find('\0')));
        // ptxas pads its own arguments with spaces ("-v  -arch sm_90 -m 64 ").
        args.erase(args.find_last_not_of(' ') + 1);
        return args;
    }
    return {};
}

} // namespace

CubinInfo read_cubin(std::string_view cubin)
{
    [[maybe_unused]] static const unsigned version_set = elf_version(EV_CURRENT);
    // libelf wants a mutable, aligned image; a private copy gives it one and leaves the
    // caller's bytes alone.
    std::string image(cubin);
    const std::unique_ptr<Elf, ElfCloser> elf(elf_memory(image.data(), image.size()));
    const auto fail = [&](std::string_view why) {
        return CubinError(fmt::format("not a cubin ({} bytes): {}", cubin.size(), why));
    };
    if (!elf || elf_kind(elf.get()) != ELF_K_ELF)
        throw fail("no ELF header");
    GElf_Ehdr header;
    if (gelf_getclass(elf.get()) != ELFCLASS64 || gelf_getehdr(elf.get(), &header) == nullptr)
        throw fail("not a 64-bit ELF image");
    if (header.e_machine != kEmCuda)
        throw fail(fmt::format("ELF machine is {}, not EM_CUDA ({})", header.e_machine, kEmCuda));
    std::size_t names_index = 0;
    std::size_t section_count = 0;
    if (elf_getshdrstrndx(elf.get(), &names_index) != 0 || elf_getshdrnum(elf.get(), &section_count) != 0)
        throw fail(fmt::format("unreadable section table ({})", elf_errmsg(-1)));
    // libelf quietly shows no sections when the table lies past the end of the image.
    if (const auto table_end = header.e_shoff + section_count * header.e_shentsize; table_end > cubin.size())
        throw fail(fmt::format("truncated: the section table ends at byte {}", table_end));

    CubinInfo info;
    info.sm = sm_from_header(header);

    std::vector<Section> sections;
    std::map<std::string, std::size_t, std::less<>> by_name;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf.get(), scn)) != nullptr;) {
        Section s;
        s.index = elf_ndxscn(scn);
        if (gelf_getshdr(scn, &s.header) == nullptr)
            throw fail(fmt::format("unreadable section header {} ({})", s.index, elf_errmsg(-1)));
        const char* name = elf_strptr(elf.get(), names_index, s.header.sh_name);
        s.name = name != nullptr ? name : "";
        if (s.header.sh_type != SHT_NOBITS && s.header.sh_offset + s.header.sh_size > cubin.size())
            throw fail(fmt::format("truncated: section {} ends at byte {}", s.name, s.header.sh_offset + s.header.sh_size));
        s.data = section_data(scn, s.header);
        if (s.header.sh_type == SHT_NOTE && s.name == ".note.nv.tkinfo")
            info.ptxas_arguments = ptxas_arguments(s, scn);
        by_name.emplace(s.name, sections.size());
        sections.push_back(std::move(s));
    }
    const auto section = [&](std::string_view name) -> const Section* {
        const auto it = by_name.find(name);
        return it == by_name.end() ? nullptr : &sections[it->second];
    };

    // Entry functions are the FUNC symbols ptxas marks with STO_CUDA_ENTRY; device
    // functions (separate in -rdc images) and inlined copies carry no mark.
    const Section* symtab = nullptr;
    for (const Section& s : sections)
        if (s.header.sh_type == SHT_SYMTAB)
            symtab = &s;
    if (symtab == nullptr)
        throw fail("no symbol table");
    struct Entry {
        std::uint32_t symbol;
        std::string name;
        const Section* text;
        std::uint64_t start; // within its section
    };
    std::vector<Entry> entries;
    // Where each function starts, by the section it is in: subroutines follow their entry.
    std::map<std::size_t, std::vector<std::uint64_t>> function_starts;
    Elf_Data* symbols = elf_getdata(elf_getscn(elf.get(), symtab->index), nullptr);
    const std::size_t symbol_count = symtab->header.sh_entsize ? symtab->header.sh_size / symtab->header.sh_entsize : 0;
    for (std::size_t i = 0; symbols != nullptr && i < symbol_count; ++i) {
        GElf_Sym sym;
        if (gelf_getsym(symbols, static_cast<int>(i), &sym) == nullptr)
            continue;
        if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
            continue;
        function_starts[sym.st_shndx].push_back(sym.st_value);
        if ((sym.st_other & kStoCudaEntry) == 0)
            continue;
        const char* name = elf_strptr(elf.get(), symtab->header.sh_link, sym.st_name);
        if (name == nullptr)
            continue;
        const Section* text = section(fmt::format(".text.{}", name));
        if (text == nullptr)
            throw fail(fmt::format("entry {} has no .text.{} section", name, name));
        entries.push_back({static_cast<std::uint32_t>(i), name, text, sym.st_value});
    }
    std::ranges::sort(entries, {}, [](const Entry& e) { return e.text->index; });

    const auto records = [&](const Section& s) {
        auto parsed = parse_nv_info(s.data);
        if (!parsed)
            throw fail(fmt::format("malformed attribute records in {}", s.name));
        return std::move(*parsed);
    };
    // Global .nv.info: records keyed by the function's symbol index.
    std::map<std::pair<std::uint32_t, std::uint8_t>, std::uint32_t> by_symbol;
    if (const Section* global = section(".nv.info"))
        for (const Record& r : records(*global))
            if (r.format == kSval && r.payload.size() >= 8)
                by_symbol[{load_u32(r.payload, 0), r.attribute}] = load_u32(r.payload, 4);
    const auto global_value = [&](std::uint32_t symbol, std::uint8_t attribute) -> std::optional<std::uint32_t> {
        const auto it = by_symbol.find({symbol, attribute});
        return it == by_symbol.end() ? std::nullopt : std::optional(it->second);
    };

    for (const Entry& e : entries) {
        CubinFunctionInfo f;
        f.name = e.name;
        f.code_bytes = static_cast<std::int64_t>(e.text->header.sh_size);
        // Up to the first subroutine after it, else to the section's closing padding.
        std::uint64_t end = e.text->header.sh_size;
        for (const std::uint64_t start : function_starts[e.text->index])
            if (start > e.start && start < end)
                end = start;
        if (end == e.text->header.sh_size)
            end = std::min<std::uint64_t>(end, issuable_bytes(e.text->data));
        f.entry_code_bytes = static_cast<std::int64_t>(end - std::min<std::uint64_t>(e.start, end));
        const MachineLoops loops = read_machine_loops(
            e.text->data.substr(std::min<std::uint64_t>(e.start, end), static_cast<std::size_t>(f.entry_code_bytes)),
            info.sm);
        f.entry_loops = loops.backward_branches;
        f.entry_inner_loops = loops.innermost;
        f.sass_sha256 = sha256_hex(e.text->data);
        // Fallbacks for cubins without the attributes: sm_75–sm_89 code sections also keep
        // the register count in sh_info's top byte, and older toolkits put the barrier count
        // in sh_flags bits 20–26 (nvlink moves it from there into NUM_BARRIERS).
        f.registers = static_cast<int>(global_value(e.symbol, kRegcount).value_or(e.text->header.sh_info >> 24));
        f.barriers = static_cast<int>((e.text->header.sh_flags >> 20) & 0x7f);
        f.frame_size = global_value(e.symbol, kFrameSize).value_or(0);
        f.min_stack_size = global_value(e.symbol, kMinStackSize).value_or(0);

        if (const Section* own = section(".nv.info." + e.name)) {
            for (const Record& r : records(*own)) {
                if (r.attribute == kMaxregCount && r.format == kHval)
                    f.max_registers = r.value;
                else if (r.attribute == kNumBarriers && r.format == kBval)
                    f.barriers = r.value & 0xff;
                else if (r.attribute == kMaxThreads && r.format == kSval && r.payload.size() >= 12) {
                    // Three 32-bit dimensions, whose product may pass 64 bits (found by
                    // fuzzing); a block is at most 1,024 threads.
                    const std::uint64_t x = load_u32(r.payload, 0), y = load_u32(r.payload, 4),
                                        z = load_u32(r.payload, 8);
                    const std::uint64_t xy = x * y; // two 32-bit factors fit
                    if (z != 0 && xy > std::uint64_t{std::numeric_limits<std::int32_t>::max()} / z)
                        throw fail(fmt::format("the thread limit of '{}' is {} x {} x {}", e.name, x, y, z));
                    f.max_threads = static_cast<std::int64_t>(xy * z);
                }
            }
        }
        // ptxas (CUDA 13.0) writes no attribute for .minnctapersm: it only folds it into
        // the register cap, so min_blocks stays unknown.

        if (const Section* shared = section(".nv.shared." + e.name)) {
            f.shared_static = static_cast<std::int64_t>(shared->header.sh_size);
            if (info.sm >= kFirstSmWithReservedSharedInElf)
                f.shared_static = std::max<std::int64_t>(0, f.shared_static - kReservedSharedBytes);
        }
        if (const Section* constants = section(".nv.constant0." + e.name))
            f.constant_bank0 = static_cast<std::int64_t>(constants->header.sh_size);
        info.functions.push_back(std::move(f));
    }
    return info;
}

const CubinFunctionInfo& find_function(const CubinInfo& cubin, std::string_view name)
{
    const auto it = std::ranges::find(cubin.functions, name, &CubinFunctionInfo::name);
    if (it != cubin.functions.end())
        return *it;
    std::string present;
    for (const CubinFunctionInfo& f : cubin.functions)
        present += (present.empty() ? "" : ", ") + f.name;
    throw CubinError(fmt::format("cubin (sm_{}) has no entry function '{}'; present: {}", cubin.sm, name,
                                 present.empty() ? "none" : present));
}

} // namespace autotune
