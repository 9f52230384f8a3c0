# moewb_add_qtest(NAME SOURCES src... [LIBS lib...] [LABELS label...] [TIMEOUT sec])
# One Qt Test executable per unit, registered with CTest and run offscreen.
function(moewb_add_qtest name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test ${T_LIBS})
  target_compile_definitions(${name} PRIVATE
    MOEWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    MOEWB_BINARY_DIR="${PROJECT_BINARY_DIR}"
    MOEWB_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # ASan + UBSan in a Debug build (the debug-asan preset) run several times slower.
  if(MOEWB_SANITIZE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * 5")
  endif()
  set_tests_properties(${name} PROPERTIES
    TIMEOUT ${T_TIMEOUT}
    LABELS "${T_LABELS}"
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;ASAN_OPTIONS=detect_leaks=0;MOEWB_LANG=en")  # English whatever the machine's locale
endfunction()
