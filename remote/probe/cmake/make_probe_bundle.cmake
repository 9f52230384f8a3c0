# Assembles the moe-probe bundle: BUNDLE_DIR/{moe-probe, moe-digest, manifest.json[, libnccl.so.2.zst]}.
# Inputs: BUNDLE_DIR, PROBE, VERSION, optional DIGEST, STRIP, NCCL_SOURCE and ZSTD.
file(REMOVE_RECURSE ${BUNDLE_DIR})
file(MAKE_DIRECTORY ${BUNDLE_DIR})
file(COPY ${PROBE} DESTINATION ${BUNDLE_DIR}
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(files moe-probe)
if(DIGEST)
  file(COPY ${DIGEST} DESTINATION ${BUNDLE_DIR}
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  list(APPEND files moe-digest)
endif()

if(STRIP)
  # Debug info stays in the build tree; the nodes get the small binaries.
  foreach(f IN LISTS files)
    execute_process(COMMAND ${STRIP} --strip-debug ${BUNDLE_DIR}/${f} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "strip failed on the bundled ${f}")
    endif()
  endforeach()
endif()
set(nccl_entry "")
if(NCCL_SOURCE AND ZSTD)
  # The compressed file is reproducible for the same input (no timestamps in zstd frames).
  execute_process(COMMAND ${ZSTD} -q -f -T0 -10 ${NCCL_SOURCE} -o ${BUNDLE_DIR}/libnccl.so.2.zst
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "zstd failed on ${NCCL_SOURCE}")
  endif()
  file(SHA256 ${NCCL_SOURCE} nccl_plain_sha)
  file(SIZE ${NCCL_SOURCE} nccl_plain_size)
  list(APPEND files libnccl.so.2.zst)
endif()

set(entries "")
foreach(f IN LISTS files)
  file(SHA256 ${BUNDLE_DIR}/${f} sha)
  file(SIZE ${BUNDLE_DIR}/${f} size)
  if(f STREQUAL "libnccl.so.2.zst")
    set(extra ",\n      \"role\": \"nccl-fallback\",\n      \"compression\": \"zstd\",\n      \"uncompressed_name\": \"libnccl.so.2\",\n      \"uncompressed_sha256\": \"${nccl_plain_sha}\",\n      \"uncompressed_bytes\": ${nccl_plain_size},\n      \"upload\": \"only to nodes where no libnccl.so.2 is found\"")
  elseif(f STREQUAL "moe-digest")
    set(extra ",\n      \"role\": \"trace-digest\",\n      \"executable\": true,\n      \"output_schema\": \"moe-digest/1\"")
  else()
    set(extra ",\n      \"role\": \"probe\",\n      \"executable\": true")
  endif()
  if(entries)
    string(APPEND entries ",\n")
  endif()
  string(APPEND entries "    {\n      \"name\": \"${f}\",\n      \"sha256\": \"${sha}\",\n      \"bytes\": ${size}${extra}\n    }")
endforeach()

file(WRITE ${BUNDLE_DIR}/manifest.json
"{
  \"schema\": \"moe-probe-bundle/1\",
  \"probe_schema\": \"moe-probe/2\",
  \"version\": \"${VERSION}\",
  \"files\": [
${entries}
  ]
}
")
